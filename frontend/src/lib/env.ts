/**
 * Settings of the app, read and validated in one place.
 * Everything else imports `env` instead of touching `import.meta.env` or the document.
 */
import { isLaoDocument } from './variant';

export const env = {
  /** Laos variant of the app (spec §1): Lao default, phone rule off, currency choice on. Told by
   * the server in the document (lib/variant.ts); there is no document in unit tests (node). */
  lao: isLaoDocument(typeof document === 'undefined' ? undefined : document),
  appName: import.meta.env.VITE_APP_NAME?.trim() || 'Pao',
  version: '1.1.14',
} as const;
