/**
 * One Idempotency-Key per user intent: kept across retries of the same submit (network error,
 * time-out, 5xx), renewed once the server gave a definite answer.
 *
 * `useIntentKey` leaves the renewal to the component; `useIntentMutation` is a mutation that
 * does it itself and also starts a new intent when the input changes (another code, another
 * link), so that a retry never reuses a key for a different request.
 */
import { useMutation, type UseMutationOptions, type UseMutationResult } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
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

/** The keys of one kind of money call: the same key for the same input until a definite answer. */
export class IntentKeys {
  private last: { input: string; key: string } | null = null;

  constructor(private readonly newKey: () => string = uuid) {}

  keyFor(input: unknown): string {
    const fingerprint = JSON.stringify(input ?? null);
    if (this.last?.input !== fingerprint) this.last = { input: fingerprint, key: this.newKey() };
    return this.last.key;
  }

  /** After an answer: a success or a refusal ends the intent; an unknown outcome keeps it. */
  settled(error: unknown): void {
    if (error === null || error === undefined || isDefiniteAnswer(error)) this.last = null;
  }
}

/** A money call that always carries an Idempotency-Key, one per intent (see IntentKeys). */
export function useIntentMutation<TData, TInput = void>(
  request: (input: TInput, idempotencyKey: string) => Promise<TData>,
  options: Omit<UseMutationOptions<TData, Error, TInput>, 'mutationFn'> = {},
): UseMutationResult<TData, Error, TInput> {
  const [keys] = useState(() => new IntentKeys());
  return useMutation({
    ...options,
    mutationFn: (input: TInput) => request(input, keys.keyFor(input)),
    onSettled: (...args) => {
      keys.settled(args[1]);
      return options.onSettled?.(...args);
    },
  });
}
