import { describe, expect, it } from 'vitest';
import { formatMoney } from '@/lib/money';
import { change, deltaText, percentText } from './compare';

describe('a figure against the period before', () => {
  it('says how much it moved, in its units and in percent', () => {
    expect(change(450, 300, true)).toEqual({ direction: 'up', delta: 150, percent: 50 });
    expect(change(200, 300, true)).toEqual({ direction: 'down', delta: -100, percent: -33.3 });
    expect(change(7, 7)).toEqual({ direction: 'same', delta: 0, percent: 0 });
  });

  it('gives no percentage when the period before had nothing', () => {
    expect(change(500, 0, true)).toEqual({ direction: 'up', delta: 500, percent: null });
    expect(change(0, 0)).toEqual({ direction: 'same', delta: 0, percent: null });
  });

  it('compares money in minor units and a negative base by its size', () => {
    expect(change(0.1 + 0.2, 0.3, true).direction).toBe('same');
    expect(change(100, -100, true)).toEqual({ direction: 'up', delta: 200, percent: 200 });
  });

  it('writes the change with its sign', () => {
    expect(percentText(12.5)).toBe('+12.5 %');
    expect(percentText(-33.3)).toBe('−33.3 %');
    expect(percentText(0)).toBe('0 %');
    expect(deltaText(-1500, (a) => formatMoney(a, 'LAK'))).toBe('−1,500');
    expect(deltaText(150.5, (a) => formatMoney(a, 'THB'))).toBe('+150.50');
    expect(deltaText(0, String)).toBe('0');
  });
});
