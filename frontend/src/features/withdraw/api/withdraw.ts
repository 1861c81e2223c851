/** Withdrawal limits (GET /api/lookup/withdraw) and the request (POST /api/wallet/withdrawAll). */
import { queryOptions, useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const withdrawLimitsQuery = () =>
  queryOptions({
    queryKey: ['lookup', 'withdraw'],
    queryFn: () => api.get('/api/lookup/withdraw'),
    staleTime: 60_000,
  });

export type WithdrawInput = { amount: number; idempotencyKey: string };

export function requestWithdraw({ amount, idempotencyKey }: WithdrawInput) {
  return api.post(
    '/api/wallet/withdrawAll',
    { amount },
    { headers: { 'Idempotency-Key': idempotencyKey } },
  );
}

export function useWithdraw() {
  return useMutation({ mutationFn: requestWithdraw });
}
