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

/** Notices on or off: the box shows the choice at once, and goes back if the server refuses. */
export function useLineNotices() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean): Promise<LineLink> => api.put('/api/line/link/notices', { enabled }),
    onMutate: async (enabled) => {
      await client.cancelQueries({ queryKey: KEY });
      const before = client.getQueryData<LineLink>(KEY);
      if (before) client.setQueryData<LineLink>(KEY, { ...before, notices: enabled });
      return { before };
    },
    onError: (_error, _enabled, context) => {
      if (context?.before) client.setQueryData(KEY, context.before);
    },
    onSuccess: (data) => client.setQueryData(KEY, data),
  });
}

export function useLineUnlink() {
  return useLinkMutation(() => api.delete('/api/line/link'));
}
