/** Invite (spec §7): income list (10 a page), banners, receiving the accrued income. */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

export function useCollectInvite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.get('/api/invite/bonus'),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ['wallet'] });
      void client.invalidateQueries({ queryKey: ['invite'] });
    },
  });
}
