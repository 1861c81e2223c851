import { describe, expect, it } from 'vitest';
import { pageCount, paginationRange } from './pagination';

describe('paginationRange (before 3, after 1)', () => {
  const range = (current: number, count: number) => paginationRange(current, count, 3, 1);

  it('shows every page when few', () => {
    expect(range(1, 1)).toEqual([1]);
    expect(range(1, 3)).toEqual([1, 2, 3]);
    expect(range(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('shows 3 before and 1 after the current page, with first and last', () => {
    expect(range(1, 10)).toEqual([1, 2, 'ellipsis-end', 10]);
    expect(range(10, 20)).toEqual([1, 'ellipsis-start', 7, 8, 9, 10, 11, 'ellipsis-end', 20]);
    expect(range(20, 20)).toEqual([1, 'ellipsis-start', 17, 18, 19, 20]);
  });

  it('never hides a single page behind an ellipsis', () => {
    expect(range(5, 10)).toEqual([1, 2, 3, 4, 5, 6, 'ellipsis-end', 10]);
    expect(range(7, 10)).toEqual([1, 'ellipsis-start', 4, 5, 6, 7, 8, 9, 10]);
  });

  it('clamps the current page', () => {
    expect(range(0, 4)).toEqual([1, 2, 3, 4]);
    expect(range(99, 4)).toEqual([1, 2, 3, 4]);
  });

  it('counts pages of 10', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
    expect(pageCount(95, 10)).toBe(10);
  });
});
