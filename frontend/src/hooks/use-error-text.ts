/** Text for an API or client error in the current language (spec §8). */
import { useCallback, useEffect, useReducer } from 'react';
import { useTranslation } from 'react-i18next';
import { SIGNED_OUT_ACTIONS, type ErrorAction } from '@/lib/error-actions';
import { errorText } from '@/lib/errors';
import { loadStrings } from '@/lib/i18n';
import { ERROR_STRINGS } from '@/lib/locale-files';
import { useMoneyUnit } from '@/lib/member-currency';

let errorStrings: Promise<void> | undefined;

/**
 * The error texts a member cannot meet before signing in (locales/<lng>/errors.json; the others
 * are up-front, ADR 0034), fetched once, when the main thread is first idle after a screen that
 * can show one has painted: not in the first paint's downloads, and in long before a member has
 * tapped anything and been answered.
 */
function loadErrorStrings(): Promise<void> {
  errorStrings ??= new Promise<void>((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 1000 });
    else setTimeout(resolve, 200);
  })
    .then(() => loadStrings([ERROR_STRINGS]))
    .catch(() => {
      errorStrings = undefined; // asked again by the next screen that shows errors
    });
  return errorStrings;
}

/**
 * ``action``: what the screen asked the server to do, so that a code raised by several actions
 * reads right for this one (lib/error-actions.ts); a screen doing two things passes the second
 * one per call.
 */
export function useErrorText(action?: ErrorAction): (error: unknown, forAction?: ErrorAction) => string {
  const { t, i18n } = useTranslation();
  // A minimum the text names ("at least 1 {{unit}}") is in the member's currency.
  const unit = useMoneyUnit();
  // Rendered again once the texts are in, for a screen that shows an error as it renders.
  const [, loaded] = useReducer((count: number) => count + 1, 0);
  useEffect(() => {
    // /login and /register show only up-front texts: they do not fetch the others.
    const signedOut = (SIGNED_OUT_ACTIONS as readonly string[]).includes(action ?? '');
    if (signedOut || i18n.hasLoadedNamespace(ERROR_STRINGS)) return;
    let live = true;
    void loadErrorStrings().then(() => live && loaded());
    return () => {
      live = false;
    };
  }, [i18n, action]);
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
