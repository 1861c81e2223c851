/**
 * Deposit calls: the lookup (GET /api/lookup/deposit), the QR state per bank or gateway
 * (GET/POST /api/qrcode/{bankCode}, DELETE /api/qrcode/{qrcodeId}) and TrueMoney gift links
 * (POST /api/wallet/truelink, plain JSON).
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useIntentMutation } from '@/hooks/use-intent-key';
import { api, type ApiData } from '@/lib/api-client';

export type DepositLookup = ApiData<'/api/lookup/deposit', 'get'>;
export type DepositBank = DepositLookup['banks'][number];
export type DepositWallet = DepositLookup['wallets'][number];
export type QrState = ApiData<'/api/qrcode/{bankCode}', 'get'>;

export const depositLookupQuery = () =>
  queryOptions({
    queryKey: ['lookup', 'deposit'],
    queryFn: () => api.get('/api/lookup/deposit'),
    staleTime: 60_000,
  });

export const qrStateQuery = (bankCode: string) =>
  queryOptions({
    queryKey: ['qrcode', bankCode],
    queryFn: () => api.get('/api/qrcode/{bankCode}', { params: { bankCode } }),
  });

/** How often a shown QR asks whether it was paid (no push reaches a member's browser). */
export const QR_POLL_MS = 3_000;

/** Where the shown QR stands: polled while it is open, until it is paid. */
export const qrProgressQuery = (qrcodeId: string) =>
  queryOptions({
    queryKey: ['qrcode', 'status', qrcodeId],
    queryFn: () => api.get('/api/qrcode/status/{qrcodeId}', { params: { qrcodeId } }),
    refetchInterval: (query) => (query.state.data?.paid ? false : QR_POLL_MS),
  });

export type CreateQrInput = { bankCode: string; amount: number; idempotencyKey: string };

export function useCreateQr() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ bankCode, amount, idempotencyKey }: CreateQrInput) =>
      api.post(
        '/api/qrcode/{bankCode}',
        { amount },
        { params: { bankCode }, headers: { 'Idempotency-Key': idempotencyKey } },
      ),
    onSuccess: (state, { bankCode }) => {
      // A new QR makes the member's other QRs stale (no longer offered): refetch them.
      void queryClient.invalidateQueries({
        queryKey: ['qrcode'],
        predicate: (query) => query.queryKey[1] !== bankCode,
      });
      queryClient.setQueryData(qrStateQuery(bankCode).queryKey, state);
    },
  });
}

export function useCancelQr() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ qrcodeId }: { bankCode: string; qrcodeId: string }) =>
      api.delete('/api/qrcode/{qrcodeId}', { params: { qrcodeId } }),
    onSuccess: (state, { bankCode }) => {
      queryClient.setQueryData(qrStateQuery(bankCode).queryKey, state);
    },
  });
}

/** Money call: carries an Idempotency-Key, one per intent (the same link, until answered). */
export const sendTrueLink = (link: string, key: string) =>
  api.post('/api/wallet/truelink', { link }, { headers: { 'Idempotency-Key': key } });

export function useSendTrueLink() {
  return useIntentMutation(sendTrueLink);
}

/** Slip rules (minimum deposit, upload window) shown on the bank-transfer tab. */
export const slipRulesQuery = () =>
  queryOptions({
    queryKey: ['lookup', 'slip'],
    queryFn: () => api.get('/api/lookup/slip'),
    staleTime: 60_000,
  });
