/**
 * The filters of a member's seamless play (provider, days, open or closed rounds) and the
 * query they stand for. Days are whole days in the browser's time zone, typed DD/MM/YYYY
 * (`parseDay`) and kept as YYYY-MM-DD: `from` is the start of its day, `to` the start of the day
 * after (the API's `to` is exclusive), as the audit log's filter.
 */
export type RoundState = '' | 'open' | 'closed';

export type SeamlessFilters = { provider: string; from: string; to: string; state: RoundState };

export const NO_FILTERS: SeamlessFilters = { provider: '', from: '', to: '', state: '' };

/** The local midnight starting `day` (YYYY-MM-DD), `plusDays` later, as an ISO instant. */
function startOfDay(day: string, plusDays = 0): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + plusDays).toISOString();
}

export type SeamlessQuery = { provider?: string; from?: string; to?: string; state?: 'open' | 'closed' };

/** The rounds' query (the transactions' takes the same, without the state). */
export function seamlessApiQuery(filters: SeamlessFilters): SeamlessQuery {
  const provider = filters.provider.trim().toLowerCase();
  return {
    provider: provider || undefined,
    from: filters.from ? startOfDay(filters.from) : undefined,
    to: filters.to ? startOfDay(filters.to, 1) : undefined,
    state: filters.state || undefined,
  };
}
