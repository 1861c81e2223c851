/**
 * The member search's view state lives in the URL query (a search is a link to share): what the
 * query says, and the `GET members` parameters it stands for.
 */
export const MEMBER_SORTS = ['id', '-id', 'createdAt', '-createdAt', 'name', '-name', 'balance', '-balance'] as const;
export type MemberSort = (typeof MEMBER_SORTS)[number];
export const MEMBER_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type StatusFilter = (typeof MEMBER_STATUSES)[number] | '';
export const PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_SORT: MemberSort = '-id';
export const DEFAULT_LIMIT = 25;

export type MembersView = { q: string; status: StatusFilter; page: number; limit: number; sort: MemberSort };

function positive(value: string | null, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

/** The view a URL query stands for; anything malformed falls back to the default. */
export function readMembersView(params: URLSearchParams): MembersView {
  const status = params.get('status') ?? '';
  const sort = params.get('sort') ?? '';
  const limit = positive(params.get('limit'), DEFAULT_LIMIT);
  return {
    q: (params.get('q') ?? '').trim().slice(0, 100),
    status: (MEMBER_STATUSES as readonly string[]).includes(status) ? (status as StatusFilter) : '',
    page: positive(params.get('page'), 1),
    limit: (PAGE_SIZES as readonly number[]).includes(limit) ? limit : DEFAULT_LIMIT,
    sort: (MEMBER_SORTS as readonly string[]).includes(sort) ? (sort as MemberSort) : DEFAULT_SORT,
  };
}

/** The URL query of a view: defaults are left out, so links stay short. */
export function writeMembersView(view: MembersView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.q) params.set('q', view.q);
  if (view.status) params.set('status', view.status);
  if (view.sort !== DEFAULT_SORT) params.set('sort', view.sort);
  if (view.limit !== DEFAULT_LIMIT) params.set('limit', String(view.limit));
  if (view.page !== 1) params.set('page', String(view.page));
  return params;
}

/** The `GET /api/backoffice/members` query of a view. */
export function membersApiQuery(view: MembersView): Record<string, string | number | undefined> {
  return { q: view.q || undefined, status: view.status || undefined, page: view.page, limit: view.limit, sort: view.sort };
}
