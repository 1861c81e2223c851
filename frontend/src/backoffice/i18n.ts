/**
 * The back office's strings: the app's i18n set-up (lib/i18n.ts) with the up-front
 * translation.json (shared components, error texts) and locales/<lng>/backoffice.json, which only
 * this entry names, so the player app's bundle never carries it; support.json too, for the chat's
 * shared message view and composer in the support inbox, and errors.json (the error texts not
 * needed before a player signs in), all up-front.
 */
import type { ResourceKey } from 'i18next';
import { initI18n } from '@/lib/i18n';
import { stringsBackend } from '@/lib/locale-files';

export const BACK_OFFICE_STRINGS = 'backoffice';
const CHAT_STRINGS = 'support';
// The player's strings, for the bonus editor's preview of the player's bonus card and modal.
const MEMBER_STRINGS = 'member';
// The error texts a player does not need before signing in (the up-front file has the others).
const ERROR_STRINGS = 'errors';

const files = import.meta.glob<ResourceKey>(['../locales/*/translation.json', '../locales/*/backoffice.json', '../locales/*/support.json', '../locales/*/member.json', '../locales/*/errors.json'], {
  import: 'default',
});

export function initBackOfficeI18n(): Promise<void> {
  return initI18n([BACK_OFFICE_STRINGS, CHAT_STRINGS, MEMBER_STRINGS, ERROR_STRINGS], {
    backend: stringsBackend(files),
    fallback: [BACK_OFFICE_STRINGS, CHAT_STRINGS, MEMBER_STRINGS, ERROR_STRINGS],
  });
}
