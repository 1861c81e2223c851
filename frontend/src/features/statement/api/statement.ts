/** POST /api/statement {page, limit}: one page of the member's transactions. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type ApiData } from '@/lib/api-client';

export const STATEMENT_PAGE_SIZE = 10;

export type StatementPage = ApiData<'/api/statement', 'post'>;
export type Statement = StatementPage['statements'][number];

export const statementQuery = (page: number) =>
  queryOptions({
    queryKey: ['statement', page],
    queryFn: () =>
      api.post('/api/statement', { page, limit: STATEMENT_PAGE_SIZE }),
    placeholderData: keepPreviousData,
    // Money moves elsewhere (withdraw, deposits by the operator): always ask again on a visit.
    staleTime: 0,
  });

export function useStatement(page: number) {
  return useQuery(statementQuery(page));
}
