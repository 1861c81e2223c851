/**
 * i18next set-up. Only the active language's strings are loaded, in parts (lib/locale-files.ts):
 * the up-front 'translation' namespace, and feature parts fetched with the lazy screens that show
 * them. The parts are fallback namespaces, so a key reads 'feature.key' whichever file holds it.
 * Default th (la in the Lao build); a choice saved in localStorage 'locale' wins. The 'i18next'
 * cookie holds the upper-cased locale and <html lang> follows (lo for Lao).
 */
import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type backoffice from '@/locales/th/backoffice.json';
import type errors from '@/locales/th/errors.json';
import type member from '@/locales/th/member.json';
import type register from '@/locales/th/register.json';
import type support from '@/locales/th/support.json';
import type translation from '@/locales/th/translation.json';
import { env } from './env';
import { localeFiles, STRING_PARTS, type StringPart } from './locale-files';
import { CORE_STRINGS, isLocale, languageTag, LOCALES, type Locale } from './locales';
import { readLocal, STORAGE_KEYS, writeLocal } from './storage';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    // 'backoffice' is read only by the back office's own entry (src/backoffice/i18n.ts).
    fallbackNS: (StringPart | 'backoffice')[];
    resources: {
      translation: typeof translation;
      register: typeof register;
      member: typeof member;
      support: typeof support;
      errors: typeof errors;
      backoffice: typeof backoffice;
    };
  }
}

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

let started: Promise<unknown> | undefined;

/**
 * Starts i18next; the up-front strings and `parts` (the first screen's) are fetched together.
 * The back office passes its own backend and parts (its strings are not in the player's files).
 */
export function initI18n(
  parts: readonly string[] = [],
  { backend = localeFiles, fallback = STRING_PARTS }: { backend?: BackendModule; fallback?: readonly string[] } = {},
): Promise<void> {
  const locale = initialLocale();
  started ??= i18n
    .use(backend)
    .use(initReactI18next)
    .init({
      lng: locale,
      fallbackLng: false,
      supportedLngs: LOCALES,
      ns: [CORE_STRINGS, ...parts],
      defaultNS: CORE_STRINGS,
      fallbackNS: [...fallback],
      // Fetch the strings now, not on the next tick: the first screen's chunks are already on
      // their way and the first render waits for both.
      initAsync: false,
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: false },
    });
  return started.then(() => applyLocale(locale));
}

/** Fetches feature parts in the current language; a later switch fetches them in the new one. */
export async function loadStrings(parts: readonly string[]): Promise<void> {
  if (!started) throw new Error('loadStrings before initI18n');
  await started;
  await i18n.loadNamespaces([...parts]);
}

/** Switches language (with every part loaded so far) and remembers the choice. */
export async function changeLocale(locale: Locale): Promise<void> {
  await i18n.changeLanguage(locale);
  writeLocal(STORAGE_KEYS.locale, locale);
  applyLocale(locale);
}

/** The UI's language; before i18next has started, the one it will start with. */
export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : initialLocale();
}

export { i18n };
