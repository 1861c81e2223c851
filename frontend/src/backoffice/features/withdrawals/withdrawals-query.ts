/**
 * The withdrawal queue's view state lives in the URL query (a view is a link to share): status,
 * sort, page, page size and the withdrawal open in the detail panel. The queue opens on the
 * PENDING items, oldest first: the order a cashier works them in.
 */
import type { components } from '@/api/schema.gen';

export type WithdrawalStatus = components['schemas']['WithdrawalStatus'];
export const STATUSES: readonly WithdrawalStatus[] = ['PENDING', 'APPROVED', 'PAID', 'REJECTED', 'FAILED'];
export const SORTS = ['createdAt', '-createdAt', 'amount', '-amount'] as const;
export type QueueSort = (typeof SORTS)[number];
export const PAGE_SIZES = [20, 50, 100] as const;
export const DEFAULT_SORT: QueueSort = 'createdAt';
export const DEFAULT_LIMIT = 20;
export const DEFAULT_STATUS: WithdrawalStatus = 'PENDING';

export type QueueView = {
  /** '' = every status. */
  status: WithdrawalStatus | '';
  page: number;
  limit: number;
  sort: QueueSort;
  /** The withdrawal shown in the detail panel, or null. */
  open: number | null;
};

function positive(value: string | null, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

/** The view a URL query stands for; anything malformed falls back to the default. */
export function readQueueView(params: URLSearchParams): QueueView {
  const status = params.get('status');
  const sort = params.get('sort') ?? '';
  const limit = positive(params.get('limit'), DEFAULT_LIMIT);
  const open = positive(params.get('open'), 0);
  return {
    status: status === 'all' ? '' : (STATUSES as readonly string[]).includes(status ?? '') ? (status as WithdrawalStatus) : DEFAULT_STATUS,
    page: positive(params.get('page'), 1),
    limit: (PAGE_SIZES as readonly number[]).includes(limit) ? limit : DEFAULT_LIMIT,
    sort: (SORTS as readonly string[]).includes(sort) ? (sort as QueueSort) : DEFAULT_SORT,
    open: open || null,
  };
}

/** The URL query of a view: defaults are left out, so links stay short. */
export function writeQueueView(view: QueueView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.status !== DEFAULT_STATUS) params.set('status', view.status || 'all');
  if (view.sort !== DEFAULT_SORT) params.set('sort', view.sort);
  if (view.limit !== DEFAULT_LIMIT) params.set('limit', String(view.limit));
  if (view.page !== 1) params.set('page', String(view.page));
  if (view.open !== null) params.set('open', String(view.open));
  return params;
}

/** The `GET /api/backoffice/withdrawals` query of a view. */
export function queueApiQuery(view: QueueView): Record<string, string | number | undefined> {
  return { status: view.status || undefined, page: view.page, limit: view.limit, sort: view.sort };
}

/** Every query of the queue and its details starts with this key (a live event refreshes them). */
export const WITHDRAWALS_KEY = ['bo', 'withdrawals'] as const;
