/**
 * i18next set-up. Only the active language's strings are loaded (each locale is its own chunk).
 * Default th (la in the Lao build); a choice saved in localStorage 'locale' wins. The 'i18next'
 * cookie holds the upper-cased locale and <html lang> follows (lo for Lao).
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type th from '@/locales/th/translation.json';
import { env } from './env';
import { isLocale, languageTag, type Locale } from './locales';
import { readLocal, STORAGE_KEYS, writeLocal } from './storage';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof th };
  }
}

type Bundle = { default: Record<string, unknown> };

const loaders: Record<Locale, () => Promise<Bundle>> = {
  th: () => import('@/locales/th/translation.json'),
  la: () => import('@/locales/la/translation.json'),
  en: () => import('@/locales/en/translation.json'),
};

export const COOKIE_NAME = 'i18next';

export function defaultLocale(): Locale {
  return env.lao ? 'la' : 'th';
}

export function initialLocale(): Locale {
  const saved = readLocal(STORAGE_KEYS.locale);
  return isLocale(saved) ? saved : defaultLocale();
}

function applyLocale(locale: Locale): void {
  document.documentElement.lang = languageTag(locale);
  document.cookie = `${COOKIE_NAME}=${locale.toUpperCase()}; path=/; max-age=31536000; SameSite=Lax`;
}

async function ensureBundle(locale: Locale): Promise<void> {
  if (i18n.hasResourceBundle(locale, 'translation')) return;
  const bundle = await loaders[locale]();
  i18n.addResourceBundle(locale, 'translation', bundle.default, true, true);
}

export async function initI18n(): Promise<typeof i18n> {
  const locale = initialLocale();
  const bundle = await loaders[locale]();
  await i18n.use(initReactI18next).init({
    lng: locale,
    fallbackLng: false,
    supportedLngs: ['th', 'la', 'en'],
    resources: { [locale]: { translation: bundle.default } },
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });
  applyLocale(locale);
  return i18n;
}

/** Switches language and remembers the choice. */
export async function changeLocale(locale: Locale): Promise<void> {
  await ensureBundle(locale);
  await i18n.changeLanguage(locale);
  writeLocal(STORAGE_KEYS.locale, locale);
  applyLocale(locale);
}

export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : defaultLocale();
}

export { i18n };
