import { describe, expect, it } from 'vitest';
import { ringOffset } from './ring';

describe('the carousel ring', () => {
  it('puts the last game left of the first: three cards at every place', () => {
    const offsets = (active: number) => [0, 1, 2, 3, 4].map((index) => ringOffset(index, active, 5));
    expect(offsets(0)).toEqual([0, 1, 2, -2, -1]);
    expect(offsets(4)).toEqual([1, 2, -2, -1, 0]);
    for (const active of [0, 1, 2, 3, 4]) {
      expect(offsets(active).filter((offset) => Math.abs(offset) <= 1)).toHaveLength(3);
    }
  });

  it('keeps two games a row', () => {
    expect([0, 1].map((index) => ringOffset(index, 0, 2))).toEqual([0, 1]);
    expect([0, 1].map((index) => ringOffset(index, 1, 2))).toEqual([-1, 0]);
  });
});
