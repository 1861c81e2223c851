/** Text for an API or client error in the current language (spec §8). */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errors';

export function useErrorText(): (error: unknown) => string {
  const { t, i18n } = useTranslation();
  return useCallback(
    (error: unknown) =>
      errorText(
        error,
        (key) => t(key as never),
        (key) => i18n.exists(key),
      ),
    [t, i18n],
  );
}
