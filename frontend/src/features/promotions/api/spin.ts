/** Prize wheel (spec §7 "Spin wheel"): setup with odds, spin, coupons, claim, active flag. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type ApiData } from '@/lib/api-client';

export type WheelSetup = ApiData<'/api/spinwheel/setup', 'get'>;
export type Coupon = ApiData<'/api/spinwheel/coupon', 'get'>[number];
export type SpinAnswer = ApiData<'/api/spinwheel/spin', 'post'>;

export const spinQueries = {
  active: () =>
    queryOptions({ queryKey: ['spin', 'active'], queryFn: () => api.get('/api/spinwheel/active'), staleTime: 60_000 }),
  setup: () => queryOptions({ queryKey: ['spin', 'setup'], queryFn: () => api.get('/api/spinwheel/setup'), staleTime: 0 }),
  coupons: () =>
    queryOptions({ queryKey: ['spin', 'coupons'], queryFn: () => api.get('/api/spinwheel/coupon'), staleTime: 0 }),
};

export const useSpinActive = () => useQuery(spinQueries.active());
export const useWheelSetup = () => useQuery(spinQueries.setup());
export const useCoupons = () => useQuery(spinQueries.coupons());

export function useSpin() {
  return useMutation({
    mutationFn: (idempotencyKey: string) =>
      api.post('/api/spinwheel/spin', undefined, { headers: { 'Idempotency-Key': idempotencyKey } }),
  });
}

export function useClaimCoupon() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ coupon, idempotencyKey }: { coupon: string; idempotencyKey: string }) =>
      api.post('/api/spinwheel/coupon/claim', { coupon }, { headers: { 'Idempotency-Key': idempotencyKey } }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ['spin'] });
      void client.invalidateQueries({ queryKey: ['wallet'] });
    },
  });
}
