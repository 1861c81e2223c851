/**
 * Whether the staff session is locked (idle, or locked by hand: the server answers every call
 * 423 SESSION_LOCKED until the password unlocks it). Every tab of the back office shares it
 * through localStorage: one tab locking or unlocking locks or unlocks them all. The last human
 * activity is shared the same way, so a cashier busy in one tab is not locked out by another.
 */
import { useSyncExternalStore } from 'react';
import { readLocal, removeLocal, writeLocal } from '@/lib/storage';

export const LOCK_KEY = 'pao-staff-locked';
export const ACTIVITY_KEY = 'pao-staff-active-at';

const listeners = new Set<() => void>();
let locked = readLocal(LOCK_KEY) === '1';

function emit(): void {
  for (const listener of listeners) listener();
}

function set(next: boolean): void {
  if (locked === next) return;
  locked = next;
  emit();
}

/** The server said SESSION_LOCKED, or this tab locked: every tab shows the lock screen. */
export function markLocked(): void {
  writeLocal(LOCK_KEY, '1');
  set(true);
}

/** Unlocked here: every tab carries on. */
export function markUnlocked(): void {
  writeLocal(LOCK_KEY, '0');
  set(false);
}

/** The session is over (logout, ended): no lock to remember. */
export function forgetLock(): void {
  removeLocal(LOCK_KEY);
  set(false);
}

export function isLocked(): boolean {
  return locked;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === LOCK_KEY) set(event.newValue === '1');
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useLocked(): boolean {
  return useSyncExternalStore(subscribe, isLocked, () => false);
}

/** When a human last used any tab of the back office (ms since 1970), or null. */
export function lastActivity(): number | null {
  const value = Number(readLocal(ACTIVITY_KEY));
  return Number.isFinite(value) && value > 0 ? value : null;
}

export function recordActivity(at: number): void {
  writeLocal(ACTIVITY_KEY, String(at));
}
