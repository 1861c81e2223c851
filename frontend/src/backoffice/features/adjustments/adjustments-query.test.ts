import { describe, expect, it } from 'vitest';
import { adjustmentApiQuery, readAdjustmentView, writeAdjustmentView } from './adjustments-query';

describe('adjustments view in the URL', () => {
  it('reads defaults from an empty or malformed query', () => {
    expect(readAdjustmentView(new URLSearchParams('status=NOPE&page=-1&limit=7&sort=x'))).toEqual({
      status: '',
      page: 1,
      limit: 25,
      sort: '-createdAt',
    });
  });

  it('round-trips a view and leaves defaults out', () => {
    const view = readAdjustmentView(new URLSearchParams('status=AWAITING_APPROVAL&page=2&sort=amount'));
    expect(writeAdjustmentView(view).toString()).toBe('status=AWAITING_APPROVAL&sort=amount&page=2');
    expect(adjustmentApiQuery(view)).toEqual({ status: 'AWAITING_APPROVAL', page: 2, limit: 25, sort: 'amount' });
  });
});
