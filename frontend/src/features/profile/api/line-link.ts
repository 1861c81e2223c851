/** The member's link to their LINE user (issue 32): state, one-time code, notices, unlink. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type ApiData } from '@/lib/api-client';

export type LineLink = ApiData<'/api/line/link', 'get'>;

const KEY = ['line', 'link'] as const;
// While a code waits to be sent in LINE, the page asks now and then whether it arrived.
const WAITING_POLL_MS = 5000;

export const lineLinkQuery = () =>
  queryOptions({
    queryKey: KEY,
    queryFn: () => api.get('/api/line/link'),
    refetchInterval: (query) => (query.state.data?.code ? WAITING_POLL_MS : false),
  });

export function useLineLink() {
  return useQuery(lineLinkQuery());
}

function useLinkMutation<V>(call: (value: V) => Promise<LineLink>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (data) => client.setQueryData(KEY, data),
  });
}

export function useLineLinkCode() {
  return useLinkMutation(() => api.post('/api/line/link/code'));
}

export function useLineNotices() {
  return useLinkMutation((enabled: boolean) => api.put('/api/line/link/notices', { enabled }));
}

export function useLineUnlink() {
  return useLinkMutation(() => api.delete('/api/line/link'));
}
