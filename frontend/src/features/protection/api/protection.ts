/**
 * Player protection (issue 33 §4): the member's deposit limits and any time-out or
 * self-exclusion, and the calls that change them. Each answer is the whole new state.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type ApiBody, type ApiData } from '@/lib/api-client';

export type Protection = ApiData<'/api/protection', 'get'>;
export type Limit = Protection['limits'][number];
export type Exclusion = NonNullable<Protection['exclusion']>;
export type LimitsBody = ApiBody<'/api/protection/limits', 'put'>;
export type ExclusionBody = ApiBody<'/api/protection/exclusion', 'post'>;

export const protectionQuery = () =>
  queryOptions({
    queryKey: ['protection'],
    queryFn: () => api.get('/api/protection'),
    staleTime: 30_000,
  });

export function useProtection() {
  return useQuery(protectionQuery());
}

/** A mutation whose answer is the new state: it replaces the cached one. */
function useProtectionChange<T>(call: (input: T) => Promise<Protection>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (state) => client.setQueryData(protectionQuery().queryKey, state),
  });
}

export const useSetLimits = () =>
  useProtectionChange((body: LimitsBody) => api.put('/api/protection/limits', body));

export const useSetLossLimits = () =>
  useProtectionChange((body: LimitsBody) => api.put('/api/protection/loss-limits', body));

export const useStartExclusion = () =>
  useProtectionChange((body: ExclusionBody) => api.post('/api/protection/exclusion', body));

export const useEndExclusion = () =>
  useProtectionChange(() => api.post('/api/protection/exclusion/end', undefined));
