/** The app's languages (spec §1) and how each is named to the browser. */
export const LOCALES = ['th', 'la', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Each language's up-front strings file, locales/<lng>/translation.json (i18next's default namespace). */
export const CORE_STRINGS = 'translation';

/** BCP 47 tag for <html lang> and Intl: Lao is `lo`, not `la` (Latin). */
export function languageTag(locale: Locale): string {
  return locale === 'la' ? 'lo' : locale;
}

/** Locale used for Intl date and relative-time formatting. */
export function intlTag(locale: Locale): string {
  return { th: 'th-TH', la: 'lo-LA', en: 'en-GB' }[locale];
}
