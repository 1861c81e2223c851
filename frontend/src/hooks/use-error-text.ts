/** Text for an API or client error in the current language (spec §8). */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorAction } from '@/lib/error-actions';
import { errorText } from '@/lib/errors';
import { useMoneyUnit } from '@/lib/member-currency';

/**
 * ``action``: what the screen asked the server to do, so that a code raised by several actions
 * reads right for this one (lib/error-actions.ts); a screen doing two things passes the second
 * one per call.
 */
export function useErrorText(action?: ErrorAction): (error: unknown, forAction?: ErrorAction) => string {
  const { t, i18n } = useTranslation();
  // A minimum the text names ("at least 1 {{unit}}") is in the member's currency.
  const unit = useMoneyUnit();
  return useCallback(
    (error: unknown, forAction?: ErrorAction) =>
      errorText(
        error,
        (key, values) => String(t(key as never, { unit, ...values } as never)),
        (key) => i18n.exists(key),
        forAction ?? action,
      ),
    [t, i18n, action, unit],
  );
}
