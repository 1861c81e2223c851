/** The inbox's view as the URL query: ?view=mine|unassigned|all&page=N&c=<conversation id>. */
import type { InboxView } from './inbox-api';

export const VIEWS: readonly InboxView[] = ['all', 'mine', 'unassigned'];

export type InboxState = { view: InboxView; page: number; selected: number | null };

function positive(value: string | null): number | null {
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 1 ? n : null;
}

export function readInboxState(params: URLSearchParams): InboxState {
  const view = params.get('view');
  return {
    view: VIEWS.includes(view as InboxView) ? (view as InboxView) : 'all',
    page: positive(params.get('page')) ?? 1,
    selected: positive(params.get('c')),
  };
}

export function writeInboxState(state: InboxState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.view !== 'all') params.set('view', state.view);
  if (state.page > 1) params.set('page', String(state.page));
  if (state.selected !== null) params.set('c', String(state.selected));
  return params;
}
