import { describe, expect, it } from 'vitest';
import { parseWeight, percent, wheelOdds } from './odds';

describe('wheel editor odds', () => {
  it('gives each slice weight / total and the expected credit per spin, items apart', () => {
    const odds = wheelOdds([
      { weight: 1, prizeType: 'credit', prizeAmount: 10 },
      { weight: 2, prizeType: 'none', prizeAmount: 0 },
      { weight: 1, prizeType: 'credit', prizeAmount: 50 },
      { weight: 4, prizeType: 'item', prizeAmount: 999 },
    ]);
    expect(odds.totalWeight).toBe(8);
    expect(odds.probabilities).toEqual([0.125, 0.25, 0.125, 0.5]);
    expect(odds.expectedPayout).toBe(7.5);
    expect(odds.itemPrizes).toEqual([3]);
  });

  it('answers zero odds when the weights sum to zero', () => {
    const odds = wheelOdds([{ weight: 0, prizeType: 'credit', prizeAmount: 5 }]);
    expect(odds).toEqual({ totalWeight: 0, probabilities: [0], expectedPayout: 0, itemPrizes: [] });
  });

  it('reads only whole weights of 0 or more', () => {
    expect(parseWeight(' 12 ')).toBe(12);
    expect(parseWeight('-1')).toBeNull();
    expect(parseWeight('1.5')).toBeNull();
    expect(parseWeight('')).toBeNull();
  });

  it('formats like the spin page', () => {
    expect(percent(0.3)).toBe('30.0%');
    expect(percent(0.005)).toBe('0.50%');
  });
});
