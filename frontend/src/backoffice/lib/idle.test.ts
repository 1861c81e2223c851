import { describe, expect, it } from 'vitest';
import { isIdle, KEEP_ALIVE_EVERY_MS, shouldKeepAlive } from './idle';

describe('the idle lock in the browser', () => {
  it('counts idle from the last activity of any tab', () => {
    const minute = 60_000;
    expect(isIdle(30 * minute - 1, 0, 30)).toBe(false);
    expect(isIdle(30 * minute, 0, 30)).toBe(true);
    expect(isIdle(45 * minute, 20 * minute, 30)).toBe(false);
  });

  it('keeps the server session in use only for a human who was active', () => {
    expect(shouldKeepAlive(KEEP_ALIVE_EVERY_MS, 10, 0)).toBe(true);
    expect(shouldKeepAlive(KEEP_ALIVE_EVERY_MS - 1, 10, 0)).toBe(false);
    // Nobody touched anything since the last keep-alive: the server may lock it.
    expect(shouldKeepAlive(3 * KEEP_ALIVE_EVERY_MS, KEEP_ALIVE_EVERY_MS - 5, KEEP_ALIVE_EVERY_MS)).toBe(false);
  });
});
