/**
 * Browser storage keys (spec §3) and the stored session.
 * The token lives in localStorage when the member chose 'remember', else in sessionStorage.
 */
export const STORAGE_KEYS = {
  token: 'token',
  locale: 'locale',
  rememberAgreement: 'remember-agreement',
  lastSync: 'last_sync',
  inviteCode: 'code',
  guestId: 'guest-id',
  // The member's wallet currency, once the wallet said it (lib/member-currency.ts).
  currency: 'currency',
} as const;

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    // Storage can throw (private mode, disabled cookies); the app still works without it.
    return fallback;
  }
}

export function readLocal(key: string): string | null {
  return safe(() => localStorage.getItem(key), null);
}

export function writeLocal(key: string, value: string): void {
  safe(() => localStorage.setItem(key, value), undefined);
}

export function removeLocal(key: string): void {
  safe(() => localStorage.removeItem(key), undefined);
}

export function getToken(): string | null {
  return (
    readLocal(STORAGE_KEYS.token) ?? safe(() => sessionStorage.getItem(STORAGE_KEYS.token), null)
  );
}

export function setToken(token: string, remember: boolean): void {
  clearToken();
  if (remember) writeLocal(STORAGE_KEYS.token, token);
  else safe(() => sessionStorage.setItem(STORAGE_KEYS.token, token), undefined);
}

function clearToken(): void {
  removeLocal(STORAGE_KEYS.token);
  safe(() => sessionStorage.removeItem(STORAGE_KEYS.token), undefined);
}

const sessionEnded = new Set<() => void>();

/** Calls `listener` whenever the session is dropped (what it kept of the member goes too). */
export function onSessionCleared(listener: () => void): void {
  sessionEnded.add(listener);
}

/** Drops the stored session: token, remembered agreement, last sync and the member's currency
 * (spec §2). */
export function clearSession(): void {
  clearToken();
  removeLocal(STORAGE_KEYS.rememberAgreement);
  removeLocal(STORAGE_KEYS.lastSync);
  removeLocal(STORAGE_KEYS.currency);
  for (const listener of sessionEnded) listener();
}
