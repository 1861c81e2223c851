/**
 * The adjustments list's view state lives in the URL query (a filtered view is a link to
 * share): what the query says, and the `GET adjustments` parameters it stands for.
 */
export const ADJUSTMENT_SORTS = ['createdAt', '-createdAt', 'amount', '-amount', 'status', '-status'] as const;
export type AdjustmentSort = (typeof ADJUSTMENT_SORTS)[number];
export const ADJUSTMENT_STATUSES = ['AWAITING_APPROVAL', 'POSTED', 'REJECTED'] as const;
export type AdjustmentStatus = (typeof ADJUSTMENT_STATUSES)[number];
export const PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_SORT: AdjustmentSort = '-createdAt';
export const DEFAULT_LIMIT = 25;

export type AdjustmentView = {
  status: AdjustmentStatus | '';
  page: number;
  limit: number;
  sort: AdjustmentSort;
};

function positive(value: string | null, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

/** The view a URL query stands for; anything malformed falls back to the default. */
export function readAdjustmentView(params: URLSearchParams): AdjustmentView {
  const status = params.get('status') ?? '';
  const sort = params.get('sort') ?? '';
  const limit = positive(params.get('limit'), DEFAULT_LIMIT);
  return {
    status: (ADJUSTMENT_STATUSES as readonly string[]).includes(status) ? (status as AdjustmentStatus) : '',
    page: positive(params.get('page'), 1),
    limit: (PAGE_SIZES as readonly number[]).includes(limit) ? limit : DEFAULT_LIMIT,
    sort: (ADJUSTMENT_SORTS as readonly string[]).includes(sort) ? (sort as AdjustmentSort) : DEFAULT_SORT,
  };
}

/** The URL query of a view: defaults are left out, so links stay short. */
export function writeAdjustmentView(view: AdjustmentView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.status) params.set('status', view.status);
  if (view.sort !== DEFAULT_SORT) params.set('sort', view.sort);
  if (view.limit !== DEFAULT_LIMIT) params.set('limit', String(view.limit));
  if (view.page !== 1) params.set('page', String(view.page));
  return params;
}

/** The `GET /api/backoffice/adjustments` query of a view. */
export function adjustmentApiQuery(view: AdjustmentView): Record<string, string | number | undefined> {
  return { status: view.status || undefined, page: view.page, limit: view.limit, sort: view.sort };
}
