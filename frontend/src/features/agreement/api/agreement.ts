/** The terms the member must accept: texts (lookup), accepted flag, and the accept call. */
import { queryOptions, useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const agreementTextsQuery = (lang: string) =>
  queryOptions({
    queryKey: ['lookup', 'agreements', lang],
    queryFn: () => api.get('/api/lookup/agreements', { query: { lang } }),
    staleTime: 5 * 60_000,
  });

export const agreementStatusQuery = () =>
  queryOptions({
    queryKey: ['account', 'agreement'],
    queryFn: () => api.get('/api/account/agreement'),
  });

export function useAcceptAgreement() {
  return useMutation({ mutationFn: () => api.put('/api/account/agreement') });
}
