/** A slip's reason code in the staff's words (bo.deposits.reasonName), the code itself for a
 * reason without one: the queue only holds the reviewable reasons, but an old slip may not. */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

export function useReasonText(): (reason: string | null | undefined) => string {
  const { t, i18n } = useTranslation();
  return useCallback(
    (reason) => {
      if (!reason) return '—';
      const key = `bo.deposits.reasonName.${reason}`;
      return i18n.exists(key) ? t(key as never) : reason;
    },
    [t, i18n],
  );
}
