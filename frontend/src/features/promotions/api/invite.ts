/** Invite (spec §7): income list (10 a page), banners, receiving the accrued income. */
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useIntentMutation } from '@/hooks/use-intent-key';
import { api } from '@/lib/api-client';

export const INVITE_PAGE_SIZE = 10;

export const inviteQueries = {
  list: (page: number) =>
    queryOptions({
      queryKey: ['invite', 'list', page],
      queryFn: () => api.post('/api/invite', { page, limit: INVITE_PAGE_SIZE }),
      placeholderData: keepPreviousData,
      staleTime: 0,
    }),
  banners: () =>
    queryOptions({ queryKey: ['invite', 'banners'], queryFn: () => api.get('/api/invite/banners'), staleTime: 60_000 }),
};

export const useInvites = (page: number, enabled: boolean) => useQuery({ ...inviteQueries.list(page), enabled });
export const useInviteBanners = (enabled: boolean) => useQuery({ ...inviteQueries.banners(), enabled });

/** Money call: carries an Idempotency-Key, one per intent (hooks/use-intent-key). */
export const collectInvite = (key: string) => api.get('/api/invite/bonus', { headers: { 'Idempotency-Key': key } });

export function useCollectInvite() {
  const client = useQueryClient();
  return useIntentMutation((_: void, key) => collectInvite(key), {
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ['wallet'] });
      void client.invalidateQueries({ queryKey: ['invite'] });
    },
  });
}
