/**
 * The audit log's view state lives in the URL query (a filtered view is a link to share): what
 * the query says, and the `GET audit` parameters it stands for. Dates are whole days in the
 * browser's time zone: `from` is the start of its day, `to` the start of the day after (the API's
 * `to` is exclusive). Staff type and read the days as DD/MM/YYYY (`parseDay`, lib/dates.ts); the
 * URL keeps them as YYYY-MM-DD, so a link reads the same in any browser. Sign-ins can be left
 * out (`hideSignIns=1`): they are over half the rows of a working day.
 */
export const AUDIT_SORTS = ['at', '-at', 'action', '-action', 'staff', '-staff'] as const;
export type AuditSort = (typeof AUDIT_SORTS)[number];
export const PAGE_SIZES = [25, 50, 100, 200] as const;
export const DEFAULT_SORT: AuditSort = '-at';
export const DEFAULT_LIMIT = 50;

export type AuditView = {
  staffId: string;
  action: string;
  objectType: string;
  objectId: string;
  from: string;
  to: string;
  hideSignIns: boolean;
  page: number;
  limit: number;
  sort: AuditSort;
};

export type AuditFilters = Pick<AuditView, 'staffId' | 'action' | 'objectType' | 'objectId' | 'from' | 'to' | 'hideSignIns'>;
export const FILTER_KEYS = ['staffId', 'action', 'objectType', 'objectId', 'from', 'to'] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function positive(value: string | null, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

/** The view a URL query stands for; anything malformed falls back to the default. */
export function readAuditView(params: URLSearchParams): AuditView {
  const text = (key: string) => (params.get(key) ?? '').trim();
  const day = (key: string) => (DAY.test(text(key)) ? text(key) : '');
  const sort = text('sort');
  const limit = positive(params.get('limit'), DEFAULT_LIMIT);
  return {
    staffId: /^\d+$/.test(text('staffId')) ? text('staffId') : '',
    action: text('action'),
    objectType: text('objectType'),
    objectId: text('objectId'),
    from: day('from'),
    to: day('to'),
    hideSignIns: params.get('hideSignIns') === '1',
    page: positive(params.get('page'), 1),
    limit: (PAGE_SIZES as readonly number[]).includes(limit) ? limit : DEFAULT_LIMIT,
    sort: (AUDIT_SORTS as readonly string[]).includes(sort) ? (sort as AuditSort) : DEFAULT_SORT,
  };
}

/** The URL query of a view: defaults and empty filters are left out, so links stay short. */
export function writeAuditView(view: AuditView): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) if (view[key]) params.set(key, view[key]);
  if (view.hideSignIns) params.set('hideSignIns', '1');
  if (view.sort !== DEFAULT_SORT) params.set('sort', view.sort);
  if (view.limit !== DEFAULT_LIMIT) params.set('limit', String(view.limit));
  if (view.page !== 1) params.set('page', String(view.page));
  return params;
}

/** The local midnight starting `day` (YYYY-MM-DD), `plusDays` later, as an ISO instant. */
function startOfDay(day: string, plusDays = 0): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + plusDays).toISOString();
}

/** The `GET /api/backoffice/audit` query of a view. */
export function auditApiQuery(view: AuditView): Record<string, string | number | undefined> {
  return {
    staffId: view.staffId || undefined,
    action: view.action || undefined,
    objectType: view.objectType || undefined,
    objectId: view.objectId || undefined,
    from: view.from ? startOfDay(view.from) : undefined,
    to: view.to ? startOfDay(view.to, 1) : undefined,
    hideSignIns: view.hideSignIns ? 'true' : undefined,
    page: view.page,
    limit: view.limit,
    sort: view.sort,
  };
}
