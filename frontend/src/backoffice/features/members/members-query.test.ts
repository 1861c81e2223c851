import { describe, expect, it } from 'vitest';
import { membersApiQuery, readMembersView, writeMembersView } from './members-query';

describe('member search view in the URL', () => {
  it('reads back what it writes', () => {
    const view = { q: '0812', status: 'INACTIVE' as const, page: 3, limit: 50, sort: 'balance' as const };
    expect(readMembersView(writeMembersView(view))).toEqual(view);
  });

  it('falls back to the defaults on anything malformed', () => {
    const view = readMembersView(new URLSearchParams('status=GONE&sort=drop&limit=7&page=-1'));
    expect(view).toEqual({ q: '', status: '', page: 1, limit: 25, sort: '-id' });
    expect(writeMembersView(view).toString()).toBe('');
  });

  it('leaves empty filters out of the API query', () => {
    expect(membersApiQuery(readMembersView(new URLSearchParams('q=somchai')))).toEqual({
      q: 'somchai',
      status: undefined,
      page: 1,
      limit: 25,
      sort: '-id',
    });
  });
});
