/** Error texts in the back office: the rule a refused field breaks when the answer names one
 * (bo.rule: "Must be at least 1", shown beside the field, so the text names the field and the
 * rule), else its own wording of a code when it has one (bo.errorMsg: a staff login is not a
 * phone number; a count's bounds the answer names), else the app's catalogue text
 * (lib/errors.ts). Each is filled with the values the answer carried. */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '@/lib/errors';

export function useBoErrorText(): (error: unknown) => string {
  const { t, i18n } = useTranslation();
  return useCallback(
    (error: unknown) => {
      const rule = error instanceof ApiError ? `bo.rule.${error.details.rule}` : '';
      if (error instanceof ApiError && error.details.rule && i18n.exists(rule)) return t(rule as never, { ...error.details });
      const own = error instanceof ApiError ? `bo.errorMsg.${error.code}` : '';
      if (error instanceof ApiError && i18n.exists(own)) return t(own as never, { ...error.details });
      return errorText(
        error,
        (key, values) => t(key as never, { ...values }),
        (key) => i18n.exists(key),
      );
    },
    [t, i18n],
  );
}
