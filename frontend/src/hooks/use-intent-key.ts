/**
 * One Idempotency-Key per user intent: kept across retries of the same submit (network error,
 * time-out, 5xx), renewed once the server gave a definite answer.
 */
import { useCallback, useRef } from 'react';
import { ApiError } from '@/lib/errors';
import { uuid } from '@/lib/uuid';

export function isDefiniteAnswer(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

export function useIntentKey() {
  const key = useRef<string>(uuid());
  const renew = useCallback(() => {
    key.current = uuid();
  }, []);
  const current = useCallback(() => key.current, []);
  return { current, renew };
}
