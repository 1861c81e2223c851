/** Registration calls: OTP send and verify, validate, create account. */
import { useMutation } from '@tanstack/react-query';
import { api, type ApiBody } from '@/lib/api-client';

export type RegisterPayload = ApiBody<'/api/account', 'post'>;

export function sendOtp(phoneNumber: string) {
  return api.post('/api/otp/send', { phoneNumber });
}

export function verifyOtp(body: ApiBody<'/api/otp/verify', 'post'>) {
  return api.post('/api/otp/verify', body);
}

export function validateAccount(body: RegisterPayload) {
  return api.post('/api/account/validate', body);
}

export function createAccount(body: RegisterPayload) {
  return api.post('/api/account', body);
}

export const useSendOtp = () => useMutation({ mutationFn: sendOtp });
export const useVerifyOtp = () => useMutation({ mutationFn: verifyOtp });
export const useValidateAccount = () => useMutation({ mutationFn: validateAccount });
export const useCreateAccount = () => useMutation({ mutationFn: createAccount });
