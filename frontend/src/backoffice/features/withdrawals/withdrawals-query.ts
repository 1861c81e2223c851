/**
 * The withdrawal queue's view state lives in the URL query (a view is a link to share): status,
 * the filters (amount range, bank, member, age, flags), sort, page, page size and the withdrawal
 * open in the detail panel. The queue opens on the PENDING items, oldest first: the order a
 * cashier works them in. The server validates the filters again (422 with a code).
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

export const FLAGS = ['clean', 'flagged'] as const;
export type QueueFlags = (typeof FLAGS)[number];
/** "Older than" is at most 90 days, in minutes (the server's bound). */
export const MAX_AGE_MINUTES = 90 * 24 * 60;

/** The queue's filters beside the status; '' (or null) = not filtered. Amounts as typed. */
export type QueueFilters = {
  /** Major units, at most 2 decimals. */
  amountMin: string;
  amountMax: string;
  /** A bank code (upper case). */
  bank: string;
  /** Digits: a member id or a phone number. */
  member: string;
  /** Requested at least this many minutes ago. */
  olderThan: number | null;
  flags: QueueFlags | '';
};

export const NO_FILTERS: QueueFilters = { amountMin: '', amountMax: '', bank: '', member: '', olderThan: null, flags: '' };

export type QueueView = QueueFilters & {
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

const AMOUNT = /^\d{1,13}(\.\d{1,2})?$/;
const BANK = /^[A-Z0-9_]{1,10}$/;
const MEMBER = /^\d{1,20}$/;

export type FilterProblem = 'amount' | 'range' | 'bank' | 'member' | 'age';

/** What is wrong with filters as typed (the form says it before asking the server), per field. */
export function filterProblems(filters: QueueFilters): Partial<Record<keyof QueueFilters, FilterProblem>> {
  const problems: Partial<Record<keyof QueueFilters, FilterProblem>> = {};
  if (filters.amountMin && !AMOUNT.test(filters.amountMin)) problems.amountMin = 'amount';
  if (filters.amountMax && !AMOUNT.test(filters.amountMax)) problems.amountMax = 'amount';
  if (!problems.amountMin && !problems.amountMax && filters.amountMin && filters.amountMax && Number(filters.amountMin) > Number(filters.amountMax))
    problems.amountMax = 'range';
  if (filters.bank && !BANK.test(filters.bank)) problems.bank = 'bank';
  if (filters.member && !MEMBER.test(filters.member)) problems.member = 'member';
  if (filters.olderThan !== null && !(Number.isInteger(filters.olderThan) && filters.olderThan >= 1 && filters.olderThan <= MAX_AGE_MINUTES))
    problems.olderThan = 'age';
  return problems;
}

/** Filters typed in the form, trimmed and normalised (bank codes are upper case). */
export function normaliseFilters(filters: QueueFilters): QueueFilters {
  return { ...filters, amountMin: filters.amountMin.trim(), amountMax: filters.amountMax.trim(), bank: filters.bank.trim().toUpperCase(), member: filters.member.trim() };
}

/** The filters of a URL query; a malformed one is dropped (the link still opens). */
function readFilters(params: URLSearchParams): QueueFilters {
  const raw: QueueFilters = normaliseFilters({
    amountMin: params.get('amountMin') ?? '',
    amountMax: params.get('amountMax') ?? '',
    bank: params.get('bank') ?? '',
    member: params.get('member') ?? '',
    olderThan: params.has('olderThan') ? Number(params.get('olderThan')) : null,
    flags: (FLAGS as readonly string[]).includes(params.get('flags') ?? '') ? (params.get('flags') as QueueFlags) : '',
  });
  const problems = filterProblems(raw);
  const filters = { ...raw };
  if (problems.amountMin || problems.amountMax) {
    // A range the server would refuse: neither bound is kept.
    filters.amountMin = problems.amountMin ? '' : filters.amountMin;
    filters.amountMax = problems.amountMax ? '' : filters.amountMax;
    if (problems.amountMax === 'range') filters.amountMin = '';
  }
  if (problems.bank) filters.bank = '';
  if (problems.member) filters.member = '';
  if (problems.olderThan) filters.olderThan = null;
  return filters;
}

/** Whether any filter beside the status is set. */
export function hasFilters(view: QueueFilters): boolean {
  return Boolean(view.amountMin || view.amountMax || view.bank || view.member || view.olderThan !== null || view.flags);
}

/** The view a URL query stands for; anything malformed falls back to the default. */
export function readQueueView(params: URLSearchParams): QueueView {
  const status = params.get('status');
  const sort = params.get('sort') ?? '';
  const limit = positive(params.get('limit'), DEFAULT_LIMIT);
  const open = positive(params.get('open'), 0);
  return {
    ...readFilters(params),
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
  if (view.amountMin) params.set('amountMin', view.amountMin);
  if (view.amountMax) params.set('amountMax', view.amountMax);
  if (view.bank) params.set('bank', view.bank);
  if (view.member) params.set('member', view.member);
  if (view.olderThan !== null) params.set('olderThan', String(view.olderThan));
  if (view.flags) params.set('flags', view.flags);
  if (view.sort !== DEFAULT_SORT) params.set('sort', view.sort);
  if (view.limit !== DEFAULT_LIMIT) params.set('limit', String(view.limit));
  if (view.page !== 1) params.set('page', String(view.page));
  if (view.open !== null) params.set('open', String(view.open));
  return params;
}

/** The `GET /api/backoffice/withdrawals` query of a view. */
export function queueApiQuery(view: QueueView): Record<string, string | number | undefined> {
  return {
    status: view.status || undefined,
    page: view.page,
    limit: view.limit,
    sort: view.sort,
    amountMin: view.amountMin || undefined,
    amountMax: view.amountMax || undefined,
    bank: view.bank || undefined,
    member: view.member || undefined,
    olderThan: view.olderThan ?? undefined,
    flags: view.flags || undefined,
  };
}

/** Every query of the queue and its details starts with this key (a live event refreshes them). */
export const WITHDRAWALS_KEY = ['bo', 'withdrawals'] as const;
