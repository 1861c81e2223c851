import { describe, expect, it } from 'vitest';
import { readInboxState, writeInboxState } from './inbox-view';

describe('the inbox view in the URL', () => {
  it('reads defaults from an empty query and ignores nonsense', () => {
    expect(readInboxState(new URLSearchParams(''))).toEqual({ view: 'all', page: 1, selected: null });
    expect(readInboxState(new URLSearchParams('view=x&page=-2&c=abc'))).toEqual({ view: 'all', page: 1, selected: null });
  });

  it('round-trips a view, a page and a conversation', () => {
    const state = { view: 'mine' as const, page: 3, selected: 42 };
    expect(readInboxState(writeInboxState(state))).toEqual(state);
    expect(writeInboxState({ view: 'all', page: 1, selected: null }).toString()).toBe('');
  });
});
