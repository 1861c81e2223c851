/**
 * Build-time settings, read and validated in one place.
 * Everything else imports `env` instead of touching `import.meta.env`.
 */
function flag(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}

export const env = {
  /** Laos variant of the app (spec §1): Lao default, phone rule off, currency choice on. */
  lao: flag(import.meta.env.VITE_LAO),
  appName: import.meta.env.VITE_APP_NAME?.trim() || 'Pao',
  version: '1.1.14',
} as const;
