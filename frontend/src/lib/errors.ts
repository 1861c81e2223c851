/**
 * API errors and the error catalogue of spec §8: which codes leave the page, and the text shown.
 */
import type { ErrorAction } from './error-actions';

export const NETWORK_ERROR = 'NETWORK_ERROR';
export const TIMEOUT = 'TIMEOUT';
export const GONE = 'gone';
export const INVALID_TOKEN = 'invalid-token';

export class ApiError extends Error {
  /** True when the client already sent the browser to /login or /terminated. */
  redirected = false;

  constructor(
    readonly status: number,
    readonly code: string,
    readonly field?: string,
    /** Values the answer carried beside the code (a refused amount's ``minimum``), for the text. */
    readonly details: Readonly<Record<string, string | number>> = {},
    /** Seconds until the server takes the same call again (429 REQUEST_LIMIT_1MIN). */
    readonly retryAfter?: number,
  ) {
    super(code);
    this.name = 'ApiError';
  }
}

/** Codes meaning 'cannot verify identity' or 'not logged in': the session is over. */
export const AUTH_CODES: readonly string[] = [
  INVALID_TOKEN,
  'UNAUTHORIZED',
  'EXPIRED_AUTH_TOKEN',
  'INVALID_USER_1',
  'INVALID_USER_2',
  'INVALID_USER_3',
  'INVALID_USER_4',
];

export type ErrorRoute = 'terminated' | 'login' | null;

export function errorRoute(code: string): ErrorRoute {
  if (code === GONE) return 'terminated';
  if (AUTH_CODES.includes(code)) return 'login';
  return null;
}

type Translate = (key: string, values?: Record<string, string | number>) => string;
type Exists = (key: string) => boolean;

/**
 * Text for an error: the text of its code for this action when the action has its own
 * (``errorAction.<action>.<CODE>``: one code raised by several actions, e.g. ``QR_FAIL`` when
 * creating a QR and when cancelling a paid one), else the catalogue text of the code, else the
 * code raw. Anything that is not an ApiError is a client-side failure and shows the generic text.
 */
export function errorText(error: unknown, t: Translate, exists: Exists, action?: ErrorAction): string {
  const code =
    error instanceof ApiError ? error.code : error instanceof Error ? NETWORK_ERROR : String(error);
  const key = errorTextKey(code, exists, action);
  if (key === null) return code;
  return error instanceof ApiError ? t(key, { ...error.details }) : t(key);
}

/** The translation key :func:`errorText` shows for ``code`` raised by ``action``, or null. */
export function errorTextKey(code: string, exists: Exists, action?: ErrorAction): string | null {
  const own = action ? `errorAction.${action}.${code}` : null;
  if (own && exists(own)) return own;
  const key = `errorMsg.${code}`;
  return exists(key) ? key : null;
}
