/**
 * The reality check (issue 33 §4): the member's reminder interval, when this login began and
 * the net result from play since then (GET), and the choice of interval (PUT, whose answer is
 * the whole protection state). Asked once when the app starts and once per reminder due.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiBody, type ApiData } from '@/lib/api-client';
import { protectionQuery } from './protection';

export type RealityCheck = ApiData<'/api/protection/reality-check', 'get'>;
export type RealityCheckBody = ApiBody<'/api/protection/reality-check', 'put'>;

export const realityCheckQuery = () =>
  queryOptions({
    queryKey: ['protection', 'reality-check'],
    queryFn: () => api.get('/api/protection/reality-check'),
    // Read when the app starts and when a reminder is due, never in the background.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

export function useSetRealityCheck() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RealityCheckBody) => api.put('/api/protection/reality-check', body),
    onSuccess: (state) => {
      client.setQueryData(protectionQuery().queryKey, state);
      // The reminder's timer starts again from the new interval.
      void client.invalidateQueries({ queryKey: realityCheckQuery().queryKey, exact: true });
    },
  });
}
