import { describe, expect, it } from 'vitest';
import { filterProblems, NO_FILTERS, queueApiQuery, readQueueView, writeQueueView } from './withdrawals-query';

describe('withdrawal queue view in the URL', () => {
  it('opens on the pending items, oldest first', () => {
    const view = readQueueView(new URLSearchParams());
    expect(view).toEqual({ ...NO_FILTERS, status: 'PENDING', page: 1, limit: 20, sort: 'createdAt', open: null });
    expect(writeQueueView(view).toString()).toBe('');
    expect(queueApiQuery(view)).toEqual({ status: 'PENDING', page: 1, limit: 20, sort: 'createdAt' });
  });

  it('round-trips a view and names "every status" explicitly', () => {
    const view = readQueueView(new URLSearchParams('status=all&sort=-amount&page=3&limit=50&open=7'));
    expect(view).toEqual({ ...NO_FILTERS, status: '', page: 3, limit: 50, sort: '-amount', open: 7 });
    expect(readQueueView(writeQueueView(view))).toEqual(view);
    expect(queueApiQuery(view).status).toBeUndefined();
  });

  it('falls back on anything malformed', () => {
    const view = readQueueView(new URLSearchParams('status=nope&sort=phone&page=-1&limit=7&open=x'));
    expect(view).toEqual({ ...NO_FILTERS, status: 'PENDING', page: 1, limit: 20, sort: 'createdAt', open: null });
  });

  it('keeps the filters in the URL and sends them to the server', () => {
    const query = 'amountMin=100&amountMax=2500.5&bank=scb&member=0812345678&olderThan=15&flags=clean';
    const view = readQueueView(new URLSearchParams(query));
    expect(view).toMatchObject({ amountMin: '100', amountMax: '2500.5', bank: 'SCB', member: '0812345678', olderThan: 15, flags: 'clean' });
    expect(readQueueView(writeQueueView(view))).toEqual(view);
    expect(queueApiQuery(view)).toMatchObject({ amountMin: '100', amountMax: '2500.5', bank: 'SCB', member: '0812345678', olderThan: 15, flags: 'clean' });
    expect(queueApiQuery(readQueueView(new URLSearchParams()))).not.toHaveProperty('flags', expect.anything());
  });

  it('drops malformed filters of a link instead of sending what the server refuses', () => {
    const view = readQueueView(new URLSearchParams('amountMin=500&amountMax=100&bank=S%20B&member=08x&olderThan=0&flags=dirty'));
    expect(view).toMatchObject(NO_FILTERS);
    expect(readQueueView(new URLSearchParams('amountMin=1.234&amountMax=9'))).toMatchObject({ amountMin: '', amountMax: '9' });
  });

  it('names what is wrong with typed filters', () => {
    expect(filterProblems(NO_FILTERS)).toEqual({});
    expect(filterProblems({ ...NO_FILTERS, amountMin: '10', amountMax: '5' })).toEqual({ amountMax: 'range' });
    expect(filterProblems({ ...NO_FILTERS, amountMin: '1,000', member: '+66', bank: 'K BANK', olderThan: 0 })).toEqual({
      amountMin: 'amount',
      member: 'member',
      bank: 'bank',
      olderThan: 'age',
    });
    expect(filterProblems({ ...NO_FILTERS, olderThan: 90 * 24 * 60 + 1 })).toEqual({ olderThan: 'age' });
  });
});
