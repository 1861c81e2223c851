/**
 * Where the strings come from. Each language is split into files under locales/<lng>/:
 * translation.json is loaded up-front (shells, login, shared components, time, and the error
 * texts a member can meet before signing in; index.html preloads it, see
 * plugins/preload-first-screen.ts) and every other file is a feature part, fetched only with the
 * lazy screens that show it (app/lazy-page.ts), so that /login does not download every feature's
 * strings. errors.json, the other error texts (errorMsg.* and errorAction.*), is fetched by the
 * components that can show one once the screen has painted (hooks/use-error-text.ts; ADR 0034).
 */
import type { BackendModule, ResourceKey } from 'i18next';

/** The feature parts; each is an i18next namespace holding whole 'feature.key' sections. */
export const STRING_PARTS = ['register', 'member', 'support', 'errors'] as const;

/** The error texts not needed before signing in (hooks/use-error-text.ts loads them). */
export const ERROR_STRINGS = 'errors' satisfies StringPart;
export type StringPart = (typeof STRING_PARTS)[number];

// One chunk per file, fetched on first use. The back office's strings (backoffice.json) are
// only for its own entry (src/backoffice/i18n.ts): the player app does not even name them.
const files = import.meta.glob<ResourceKey>(['../locales/*/*.json', '!../locales/*/backoffice.json'], {
  import: 'default',
});

type Files = Record<string, () => Promise<ResourceKey>>;

/** i18next backend reading locales/<language>/<namespace>.json out of `from` (an import.meta.glob). */
export function stringsBackend(from: Files): BackendModule {
  return {
    type: 'backend',
    callbackApi: false,
    init: () => undefined,
    read: (language: string, namespace: string) => {
      const load = from[`../locales/${language}/${namespace}.json`];
      return load ? load() : Promise.reject(new Error(`no strings for ${language}/${namespace}`));
    },
  };
}

/** The player app's strings. */
export const localeFiles: BackendModule = stringsBackend(files);
