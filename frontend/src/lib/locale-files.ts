/**
 * Where the strings come from. Each language is split into files under locales/<lng>/:
 * translation.json is loaded up-front (shells, login, shared components, error texts, time;
 * index.html preloads it, see plugins/preload-first-screen.ts) and every other file is a feature
 * part, fetched only with the lazy screens that show it (app/lazy-page.ts), so that /login does
 * not download every feature's strings.
 */
import type { BackendModule, ResourceKey } from 'i18next';

/** The feature parts; each is an i18next namespace holding whole 'feature.key' sections. */
export const STRING_PARTS = ['register', 'member', 'support'] as const;
export type StringPart = (typeof STRING_PARTS)[number];

// One chunk per file, fetched on first use.
const files = import.meta.glob<ResourceKey>('../locales/*/*.json', { import: 'default' });

/** i18next backend reading locales/<language>/<namespace>.json. */
export const localeFiles: BackendModule = {
  type: 'backend',
  callbackApi: false,
  init: () => undefined,
  read: (language: string, namespace: string) => {
    const load = files[`../locales/${language}/${namespace}.json`];
    return load ? load() : Promise.reject(new Error(`no strings for ${language}/${namespace}`));
  },
};
