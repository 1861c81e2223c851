/** Refund (spec §7): logs (10 a page), the check, receive, add to wallet, banners. */
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useIntentMutation } from '@/hooks/use-intent-key';
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

// Money calls: each carries an Idempotency-Key, one per intent (hooks/use-intent-key).
export const receiveRefund = (key: string) =>
  api.get('/api/refund/receive', { headers: { 'Idempotency-Key': key } });

export const addRefundToWallet = (key: string) =>
  api.get('/api/refund/addWallet', { headers: { 'Idempotency-Key': key } });

export function useReceiveRefund() {
  return useIntentMutation((_: void, key) => receiveRefund(key), { onSettled: useInvalidateRefund() });
}

export function useAddRefundToWallet() {
  return useIntentMutation((_: void, key) => addRefundToWallet(key), { onSettled: useInvalidateRefund() });
}
