/** Refund (spec §7): logs (10 a page), the check, receive, add to wallet, banners. */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const REFUND_PAGE_SIZE = 10;

export const refundQueries = {
  list: (page: number) =>
    queryOptions({
      queryKey: ['refund', 'list', page],
      queryFn: () => api.post('/api/refund', { page, limit: REFUND_PAGE_SIZE }),
      placeholderData: keepPreviousData,
      staleTime: 0,
    }),
  check: () => queryOptions({ queryKey: ['refund', 'check'], queryFn: () => api.get('/api/refund/check'), staleTime: 0 }),
  banners: () =>
    queryOptions({ queryKey: ['refund', 'banners'], queryFn: () => api.get('/api/refund/banners'), staleTime: 60_000 }),
};

export const useRefunds = (page: number, enabled: boolean) => useQuery({ ...refundQueries.list(page), enabled });
export const useRefundCheck = (enabled: boolean) => useQuery({ ...refundQueries.check(), enabled });
export const useRefundBanners = (enabled: boolean) => useQuery({ ...refundQueries.banners(), enabled });

function useInvalidateRefund() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: ['refund'] });
    void client.invalidateQueries({ queryKey: ['wallet'] });
  };
}

export function useReceiveRefund() {
  const invalidate = useInvalidateRefund();
  return useMutation({ mutationFn: () => api.get('/api/refund/receive'), onSettled: invalidate });
}

export function useAddRefundToWallet() {
  const invalidate = useInvalidateRefund();
  return useMutation({ mutationFn: () => api.get('/api/refund/addWallet'), onSettled: invalidate });
}
