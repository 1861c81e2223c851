/** Deposit review: query keys, the slip image as an object URL, and what a decision refreshes. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { getStaffToken } from '../../lib/session';

export const DEPOSITS = ['bo', 'deposits'];

/** Every decision moves money or closes an item: refresh both lists and the audit log. */
export function useDepositsChanged(): () => void {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: DEPOSITS });
    void queryClient.invalidateQueries({ queryKey: ['bo', 'audit'] });
  };
}

/** A new key per user intent (a retry of the same click reuses it; the server credits once). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/**
 * The slip image, fetched with the staff token (an <img src> cannot send it) and shown through
 * a blob: URL, revoked when the slip changes. Each fetch is an audited sensitive read.
 */
export function useSlipImage(slipId: number | null): { url: string | null; failed: boolean } {
  const image = useQuery({
    queryKey: [...DEPOSITS, 'image', slipId],
    enabled: slipId !== null,
    staleTime: Infinity,
    queryFn: async ({ signal }) => {
      const response = await fetch(`/api/backoffice/deposits/slips/${slipId}/image`, {
        headers: { Authorization: `Bearer ${getStaffToken() ?? ''}` },
        signal,
      });
      if (!response.ok) throw new Error(String(response.status));
      return response.blob();
    },
  });
  const url = useMemo(() => (image.data ? URL.createObjectURL(image.data) : null), [image.data]);
  useEffect(() => () => {
    if (url) URL.revokeObjectURL(url);
  }, [url]);
  return { url, failed: image.isError };
}
