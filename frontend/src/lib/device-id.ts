/**
 * This browser's device id: a random id made once and kept in local storage, sent with every
 * API request (X-Pao-Device). The operator links members who use one device and gives a
 * once-in-a-lifetime bonus once per device (backend: pao.identity.device). It outlives logging
 * out; without storage (private mode, blocked) it lives as long as the page.
 */
import { readLocal, writeLocal } from './storage';

export const DEVICE_HEADER = 'X-Pao-Device';
const KEY = 'pao-device';
const SHAPE = /^[A-Za-z0-9-]{16,64}$/;
let current: string | undefined;

export function deviceId(): string {
  if (current) return current;
  const kept = readLocal(KEY);
  current = kept && SHAPE.test(kept) ? kept : crypto.randomUUID();
  if (current !== kept) writeLocal(KEY, current);
  return current;
}
