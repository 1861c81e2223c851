/** Profile, password change and bank-account-name edit (spec §2, §7). */
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api, type ApiBody, type ApiData } from '@/lib/api-client';

export type Profile = ApiData<'/api/account/profile', 'get'>;

export const profileQuery = () =>
  queryOptions({
    queryKey: ['account', 'profile'],
    queryFn: () => api.get('/api/account/profile'),
  });

export function useProfile() {
  return useQuery(profileQuery());
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ApiBody<'/api/account/changepwd', 'put'>) =>
      api.put('/api/account/changepwd', body),
  });
}

export function useUpdateBankName() {
  return useMutation({
    mutationFn: (body: ApiBody<'/api/account/bankAccountName', 'put'>) =>
      api.put('/api/account/bankAccountName', body),
  });
}
