/**
 * What the queue does to catch a cashier's eye when withdrawals arrive (use-attention wires it to
 * the browser): the waiting count in the tab title, a chime the cashier can mute, the new rows
 * highlighted for a few seconds, and a desktop notification for those who opted in. The choices
 * (muted, notifications wanted) are remembered in localStorage, per browser.
 */
import { readLocal, writeLocal } from '@/lib/storage';

export const MUTED_KEY = 'pao-bo-withdrawals-muted';
export const NOTIFY_KEY = 'pao-bo-withdrawals-notify';
/** How long a new row stays highlighted. */
export const HIGHLIGHT_MS = 6_000;

/** The tab title with the waiting count in front: "(3) Withdrawals"; none waiting, no count. */
export function titleWithCount(count: number, title: string): string {
  return count > 0 ? `(${count > 999 ? '999+' : count}) ${title}` : title;
}

export function isMuted(): boolean {
  return readLocal(MUTED_KEY) === '1';
}

export function setMuted(muted: boolean): void {
  writeLocal(MUTED_KEY, muted ? '1' : '0');
}

export function wantsNotifications(): boolean {
  return readLocal(NOTIFY_KEY) === '1';
}

export function setWantsNotifications(wanted: boolean): void {
  writeLocal(NOTIFY_KEY, wanted ? '1' : '0');
}

/** A desktop notification only when asked for, allowed, and the queue is not already in view. */
export function shouldNotify({ wanted, permission, visible }: { wanted: boolean; permission: NotificationPermission | 'unsupported'; visible: boolean }): boolean {
  return wanted && permission === 'granted' && !visible;
}

/** The ids highlighted now: those that arrived less than HIGHLIGHT_MS before `now`. */
export function highlighted(arrivals: ReadonlyMap<number, number>, now: number): Set<number> {
  const ids = new Set<number>();
  for (const [id, at] of arrivals) if (now - at < HIGHLIGHT_MS) ids.add(id);
  return ids;
}
