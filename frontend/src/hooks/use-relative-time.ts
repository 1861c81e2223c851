/**
 * Relative time in the member's language: the browser's Intl when it knows the language, else
 * the app's own strings (time.ago.*), which is the case for Lao in Chromium.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatRelative, hasIntlRelative, relativeParts } from '@/lib/dates';
import { currentLocale } from '@/lib/i18n';

export function useRelativeTime(): (value: string | number | Date) => string {
  const { t, i18n } = useTranslation();
  return useCallback(
    (value) => {
      const locale = currentLocale();
      if (hasIntlRelative(locale)) return formatRelative(value, locale);
      const parts = relativeParts(value);
      if (parts.value >= 0) return t('time.justNow');
      return t(`time.ago.${parts.unit}`, { count: -parts.value });
    },
    // i18n.language makes the callback change with the language.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, i18n.language],
  );
}
