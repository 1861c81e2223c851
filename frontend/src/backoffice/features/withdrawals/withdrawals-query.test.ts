import { describe, expect, it } from 'vitest';
import { queueApiQuery, readQueueView, writeQueueView } from './withdrawals-query';

describe('withdrawal queue view in the URL', () => {
  it('opens on the pending items, oldest first', () => {
    const view = readQueueView(new URLSearchParams());
    expect(view).toEqual({ status: 'PENDING', page: 1, limit: 20, sort: 'createdAt', open: null });
    expect(writeQueueView(view).toString()).toBe('');
    expect(queueApiQuery(view)).toEqual({ status: 'PENDING', page: 1, limit: 20, sort: 'createdAt' });
  });

  it('round-trips a view and names "every status" explicitly', () => {
    const view = readQueueView(new URLSearchParams('status=all&sort=-amount&page=3&limit=50&open=7'));
    expect(view).toEqual({ status: '', page: 3, limit: 50, sort: '-amount', open: 7 });
    expect(readQueueView(writeQueueView(view))).toEqual(view);
    expect(queueApiQuery(view).status).toBeUndefined();
  });

  it('falls back on anything malformed', () => {
    const view = readQueueView(new URLSearchParams('status=nope&sort=phone&page=-1&limit=7&open=x'));
    expect(view).toEqual({ status: 'PENDING', page: 1, limit: 20, sort: 'createdAt', open: null });
  });
});
