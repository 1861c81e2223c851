import { describe, expect, it } from 'vitest';
import { clockSkew, delayUntilDue, elapsed, nextDueAt } from './reality-timing';

const MIN = 60_000;
const login = Date.UTC(2026, 11, 7, 1, 0, 0);

describe('nextDueAt', () => {
  it('is one interval after login at the start', () => {
    expect(nextDueAt(login, 30, login)).toBe(login + 30 * MIN);
    expect(nextDueAt(login, 30, login + 29 * MIN)).toBe(login + 30 * MIN);
  });
  it('moves to the next multiple once one is reached (never due twice for one mark)', () => {
    expect(nextDueAt(login, 30, login + 30 * MIN)).toBe(login + 60 * MIN);
    expect(nextDueAt(login, 15, login + 100 * MIN)).toBe(login + 105 * MIN);
  });
  it('treats a clock before login as the start', () => {
    expect(nextDueAt(login, 60, login - 5 * MIN)).toBe(login + 60 * MIN);
  });
});

describe('delayUntilDue', () => {
  it('waits by the server clock, whatever the browser clock says', () => {
    // The browser runs 10 minutes behind the server.
    const browserNow = login + 10 * MIN;
    const skew = clockSkew(login + 20 * MIN, browserNow);
    expect(skew).toBe(10 * MIN);
    expect(delayUntilDue(login, 30, browserNow + skew)).toBe(10 * MIN);
    expect(delayUntilDue(login, 30, browserNow + 4 * MIN + skew)).toBe(6 * MIN);
    expect(delayUntilDue(login, 30, login + 30 * MIN)).toBe(30 * MIN);
  });
});

describe('elapsed', () => {
  it('gives hours and minutes logged in', () => {
    expect(elapsed(login, login + 95 * MIN + 30_000)).toEqual({ hours: 1, minutes: 35 });
    expect(elapsed(login, login - MIN)).toEqual({ hours: 0, minutes: 0 });
  });
});
