/** Registration calls: OTP send and verify, validate, create account. */
import { useMutation } from '@tanstack/react-query';
import { api, type ApiBody } from '@/lib/api-client';
import { ApiError } from '@/lib/errors';

export type RegisterPayload = ApiBody<'/api/account', 'post'>;

/** Send the OTP; when the hourly SMS total is spent (OTP_BLOCK with reserve), solve the
 * server's proof of work and ask once more: the reserve is kept for requests with a proof. */
export async function sendOtp(phoneNumber: string) {
  try {
    return await api.post('/api/otp/send', { phoneNumber });
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'OTP_BLOCK' || !err.details.reserve) throw err;
    const { challenge, bits } = await api.get('/api/otp/challenge');
    const { solveProof } = await import('../proof-of-work');
    const nonce = await solveProof(challenge, bits);
    return api.post('/api/otp/send', { phoneNumber, proof: { challenge, nonce } });
  }
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
