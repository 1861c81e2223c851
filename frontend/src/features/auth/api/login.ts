import { useMutation } from '@tanstack/react-query';
import { api, type ApiBody } from '@/lib/api-client';
import { setToken } from '@/lib/storage';

export type LoginInput = ApiBody<'/api/login', 'post'> & { remember: boolean };

export async function login({ remember, ...body }: LoginInput) {
  const data = await api.post('/api/login', body);
  setToken(data.token, remember);
  return data;
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
