/**
 * The staff session token, kept like the player app keeps its own (lib/storage.ts) but under its
 * own key: the back office never reads the member's token and the player app never reads this
 * one, so neither token is ever sent on the other's routes.
 */
import { readLocal, removeLocal, writeLocal } from '@/lib/storage';

export const STAFF_TOKEN_KEY = 'pao-staff-token';

export function getStaffToken(): string | null {
  return readLocal(STAFF_TOKEN_KEY);
}

export function setStaffToken(token: string): void {
  writeLocal(STAFF_TOKEN_KEY, token);
}

export function clearStaffToken(): void {
  removeLocal(STAFF_TOKEN_KEY);
}
