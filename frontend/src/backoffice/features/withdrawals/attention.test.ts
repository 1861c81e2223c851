import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HIGHLIGHT_MS, highlighted, isMuted, setMuted, setWantsNotifications, shouldNotify, titleWithCount, wantsNotifications } from './attention';

/** Unit tests run in Node: a localStorage of a Map. */
function fakeStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

describe('the queue catches the eye', () => {
  beforeEach(() => vi.stubGlobal('localStorage', fakeStorage()));
  afterEach(() => vi.unstubAllGlobals());

  it('counts the waiting withdrawals in the tab title', () => {
    expect(titleWithCount(3, 'Withdrawals')).toBe('(3) Withdrawals');
    expect(titleWithCount(0, 'Withdrawals')).toBe('Withdrawals');
    expect(titleWithCount(1500, 'ถอนเงิน')).toBe('(999+) ถอนเงิน');
  });

  it('remembers the mute and the notification choice', () => {
    expect(isMuted()).toBe(false);
    setMuted(true);
    expect(isMuted()).toBe(true);
    setMuted(false);
    expect(isMuted()).toBe(false);
    expect(wantsNotifications()).toBe(false);
    setWantsNotifications(true);
    expect(wantsNotifications()).toBe(true);
  });

  it('notifies only an opted-in cashier who allowed it and is looking elsewhere', () => {
    expect(shouldNotify({ wanted: true, permission: 'granted', visible: false })).toBe(true);
    expect(shouldNotify({ wanted: true, permission: 'granted', visible: true })).toBe(false);
    expect(shouldNotify({ wanted: false, permission: 'granted', visible: false })).toBe(false);
    expect(shouldNotify({ wanted: true, permission: 'default', visible: false })).toBe(false);
    expect(shouldNotify({ wanted: true, permission: 'unsupported', visible: false })).toBe(false);
  });

  it('highlights a new row for a few seconds', () => {
    const arrivals = new Map([
      [1, 1_000],
      [2, 1_000 + HIGHLIGHT_MS],
    ]);
    expect(highlighted(arrivals, 1_000 + HIGHLIGHT_MS - 1)).toEqual(new Set([1, 2]));
    expect(highlighted(arrivals, 1_000 + HIGHLIGHT_MS)).toEqual(new Set([2]));
  });
});
