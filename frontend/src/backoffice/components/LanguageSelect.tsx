/** The language menu of the back office: a plain select (th, la, en), the choice shared with the
 * player app's ('locale' in localStorage). */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLocale, currentLocale } from '@/lib/i18n';
import { isLocale, LOCALES } from '@/lib/locales';

export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  const id = useId();
  return (
    <div className="bo-lang">
      <label htmlFor={id} className="visually-hidden">
        {t('bo.top.language')}
      </label>
      <select
        id={id}
        className="bo-input bo-input-sm"
        value={isLocale(i18n.language) ? i18n.language : currentLocale()}
        onChange={(event) => {
          if (isLocale(event.target.value)) void changeLocale(event.target.value);
        }}
      >
        {LOCALES.map((locale) => (
          <option key={locale} value={locale}>
            {t(`language.${locale}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
