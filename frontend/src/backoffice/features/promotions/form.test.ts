import { describe, expect, it } from 'vitest';
import { SORT_ORDER_MAX, bodyOf, draftOf, emptyDraft, sortOrderOf, type Bonus } from './form';

const STORED: Bonus = {
  id: 1,
  code: 'DAILY10',
  kind: 'bonus',
  currency: 'THB',
  type: 'day',
  name: { en: 'Daily 10%' },
  description: {},
  percent: 10,
  fixedAmount: 0,
  maxAmount: 200,
  minDeposit: 0,
  maxReceived: 2,
  turnoverMultiplier: 1,
  percentFail: 10,
  totalLimit: null,
  claimedCount: 0,
  oncePerMember: false,
  banners: [],
  validFrom: null,
  validUntil: null,
  sortOrder: -5,
  isActive: true,
  createdAt: '2026-01-01T00:00:00Z',
  usage: { granted: 0, active: 0, cleared: 0, ended: 0, cost: [] },
};

describe('bonus sort order', () => {
  it('reads a whole number within the server bounds, and nothing else', () => {
    expect(sortOrderOf('7')).toBe(7);
    expect(sortOrderOf(' -3 ')).toBe(-3);
    expect(sortOrderOf(String(SORT_ORDER_MAX))).toBe(SORT_ORDER_MAX);
    expect(sortOrderOf(String(-SORT_ORDER_MAX))).toBe(-SORT_ORDER_MAX);
    for (const bad of ['', ' ', '1.5', 'abc', String(SORT_ORDER_MAX + 1), String(-SORT_ORDER_MAX - 1), 'Infinity']) {
      expect(sortOrderOf(bad), bad).toBeNull();
    }
  });

  it('sends what was typed; a stored order goes back unchanged', () => {
    expect(bodyOf(emptyDraft('bonus')).sortOrder).toBe(0);
    expect(bodyOf({ ...emptyDraft('bonus'), sortOrder: '42' }).sortOrder).toBe(42);
    expect(draftOf(STORED).sortOrder).toBe('-5');
    expect(bodyOf(draftOf(STORED)).sortOrder).toBe(-5);
    // A promotion code's order is not edited (codes are never listed): kept as stored.
    expect(bodyOf(draftOf({ ...STORED, kind: 'promotion', sortOrder: 3 })).sortOrder).toBe(3);
  });
});

describe('bonus amounts', () => {
  it('sends a fixed amount as its own maximum: no maximum to type', () => {
    const fixed = bodyOf({ ...emptyDraft('promotion'), mode: 'fixed', fixedAmount: '50', maxAmount: '' });
    expect([fixed.percent, fixed.fixedAmount, fixed.maxAmount]).toEqual([0, 50, 50]);
    const percent = bodyOf({ ...emptyDraft('bonus'), mode: 'percent', percent: '10', maxAmount: '300' });
    expect([percent.percent, percent.fixedAmount, percent.maxAmount]).toEqual([10, 0, 300]);
  });
});
