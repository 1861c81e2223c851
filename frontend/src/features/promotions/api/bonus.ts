/** Bonuses and promotion codes (spec §7 "Bonus and promotion"): list, active check, activate, clear. */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useIntentMutation } from '@/hooks/use-intent-key';
import { api, type ApiData } from '@/lib/api-client';

export type BonusItem = ApiData<'/api/bonus', 'get'>[number];
export type ActiveBonus = ApiData<'/api/bonus/check/active', 'get'>;
export type Promotion = ApiData<'/api/promotion/find/{code}', 'get'>;

export const bonusQueries = {
  list: () => queryOptions({ queryKey: ['bonus', 'list'], queryFn: () => api.get('/api/bonus'), staleTime: 0 }),
  active: () =>
    queryOptions({ queryKey: ['bonus', 'active'], queryFn: () => api.get('/api/bonus/check/active'), staleTime: 0 }),
  notice: (lang: string) =>
    queryOptions({
      queryKey: ['lookup', 'notice', lang],
      queryFn: () => api.get('/api/lookup/notice', { query: { lang } }),
      staleTime: 5 * 60_000,
    }),
  promotion: (code: string) =>
    queryOptions({
      queryKey: ['promotion', 'find', code],
      queryFn: () => api.get('/api/promotion/find/{code}', { params: { code } }),
      staleTime: 0,
    }),
};

export const useBonuses = (enabled = true) => useQuery({ ...bonusQueries.list(), enabled });
export const useActiveBonus = () => useQuery(bonusQueries.active());

/** After any bonus change: the list, the active check and the wallet are stale. */
function useInvalidateBonus() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: ['bonus'] });
    void client.invalidateQueries({ queryKey: ['wallet'] });
  };
}

// Money calls: each carries an Idempotency-Key, one per intent (hooks/use-intent-key).
export const activateBonus = (code: string, key: string) =>
  api.get('/api/bonus/activate/{code}', { params: { code }, headers: { 'Idempotency-Key': key } });

export const activatePromotion = (code: string, key: string) =>
  api.get('/api/promotion/activate/{code}', {
    params: { code: code.toUpperCase() },
    headers: { 'Idempotency-Key': key },
  });

export const clearBonus = (key: string) => api.get('/api/bonus/clear', { headers: { 'Idempotency-Key': key } });

export function useActivateBonus() {
  return useIntentMutation(activateBonus, { onSettled: useInvalidateBonus() });
}

export function useActivatePromotion() {
  return useIntentMutation(activatePromotion, { onSettled: useInvalidateBonus() });
}

export function useClearBonus() {
  return useIntentMutation((_: void, key) => clearBonus(key), { onSettled: useInvalidateBonus() });
}
