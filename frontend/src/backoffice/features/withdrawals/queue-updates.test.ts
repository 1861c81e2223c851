import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { arrivalOf, createQueueUpdates, REFRESH_EVERY_MS, type NewWithdrawal } from './queue-updates';

const item = (id: number, amount = 100, currency: NewWithdrawal['currency'] = 'THB'): NewWithdrawal => ({ id, memberId: id, amount, currency });

describe('the queue refresh on live batches', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setUp() {
    const refreshes: number[] = [];
    const announced: number[][] = [];
    const updates = createQueueUpdates(
      () => refreshes.push(Date.now()),
      (items) => announced.push(items.map((i) => i.id)),
    );
    return { refreshes, announced, updates };
  }

  it('refreshes at once after a quiet spell, and reports the batch once', () => {
    const { refreshes, announced, updates } = setUp();
    updates.receive({ new: [item(1), item(2), item(3)] });
    expect(refreshes).toHaveLength(1);
    expect(announced).toEqual([[1, 2, 3]]);
  });

  it('refetches a steady stream at most once a second, reporting what gathered meanwhile', () => {
    const { refreshes, announced, updates } = setUp();
    const start = Date.now();
    // Four batches a second (the server's window) for three seconds.
    for (let n = 0; n < 12; n += 1) {
      updates.receive({ new: [item(n)] });
      vi.advanceTimersByTime(250);
    }
    vi.advanceTimersByTime(REFRESH_EVERY_MS);
    expect(refreshes.map((at) => at - start)).toEqual([0, 1_000, 2_000, 3_000]);
    expect(announced).toEqual([[0], [1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]);
  });

  it('refreshes for updates alone without announcing anything', () => {
    const { refreshes, announced, updates } = setUp();
    updates.receive({ updated: [{ id: 1, status: 'PAID', claimedBy: null }] });
    expect(refreshes).toHaveLength(1);
    expect(announced).toEqual([]);
  });

  it('refreshes at once on a reconnect, taking the pending refresh with it', () => {
    const { refreshes, announced, updates } = setUp();
    updates.receive({ new: [item(1)] });
    updates.receive({ new: [item(2)] });
    updates.refreshNow();
    expect(refreshes).toHaveLength(2);
    expect(announced).toEqual([[1], [2]]);
    vi.advanceTimersByTime(REFRESH_EVERY_MS * 2);
    expect(refreshes).toHaveLength(2);
  });

  it('leaves nothing pending once stopped', () => {
    const { refreshes, updates } = setUp();
    updates.receive({ new: [item(1)] });
    updates.receive({ new: [item(2)] });
    updates.stop();
    vi.advanceTimersByTime(REFRESH_EVERY_MS * 2);
    expect(refreshes).toHaveLength(1);
  });
});

describe('the announcement of new withdrawals', () => {
  it('names the one withdrawal', () => {
    expect(arrivalOf([item(7, 1234.5)])).toEqual({ key: 'bo.withdrawals.arrived', values: { id: 7, amount: '1,234.50 THB' } });
  });

  it('sums several up in one line, per currency', () => {
    expect(arrivalOf([item(1, 0.1), item(2, 0.2), item(3, 100)])).toEqual({
      key: 'bo.withdrawals.arrivedSeveral',
      values: { count: 3, amount: '100.30 THB' },
    });
    const fifty = Array.from({ length: 50 }, (_, n) => item(n, 1_000, 'LAK'));
    expect(arrivalOf([...fifty, item(99, 5)])).toEqual({
      key: 'bo.withdrawals.arrivedSeveral',
      values: { count: 51, amount: '50,000 LAK + 5.00 THB' },
    });
  });
});
