/** The adjustments' query keys, and the refresh after a change (list, one item, the policy). */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

export const ADJUSTMENTS = ['bo', 'adjustments'] as const;
export const POLICY = ['bo', 'adjustments', 'policy'] as const;

export function useAdjustmentsChanged(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => void queryClient.invalidateQueries({ queryKey: ADJUSTMENTS }), [queryClient]);
}
