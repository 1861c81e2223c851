/**
 * The queue's keyboard shortcuts, so that open → claim → approve needs no mouse: which key does
 * what, and when a key is not a shortcut (typing in a field, a dialog open, a modifier held).
 * use-queue-keys listens; the "?" dialog lists SHORTCUTS.
 */

export type QueueAction = 'next' | 'previous' | 'open' | 'claim' | 'approve' | 'claimNext' | 'close' | 'mute' | 'help';

/** In the order the help dialog lists them; the first key is the one shown. */
export const SHORTCUTS: readonly { keys: readonly string[]; action: QueueAction }[] = [
  { keys: ['j'], action: 'next' },
  { keys: ['k'], action: 'previous' },
  { keys: ['Enter', 'o'], action: 'open' },
  { keys: ['c'], action: 'claim' },
  { keys: ['a'], action: 'approve' },
  { keys: ['n'], action: 'claimNext' },
  { keys: ['Escape'], action: 'close' },
  { keys: ['m'], action: 'mute' },
  { keys: ['?'], action: 'help' },
];

const BY_KEY = new Map(SHORTCUTS.flatMap(({ keys, action }) => keys.map((key) => [key, action] as const)));

type KeyLike = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'isComposing'> & { target: EventTarget | null };

/** Where a key belongs to what the cashier is typing or choosing, not to the queue. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const element = target as HTMLElement;
  if (element.isContentEditable) return true;
  return element.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], dialog, [role="dialog"]') !== null;
}

/** The action of a key press, or null when it is not a shortcut here. Enter opens only from the
 * page itself: on a button or link Enter already does what that control does. */
export function actionOf(event: KeyLike): QueueAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return null;
  if (isTypingTarget(event.target)) return null;
  const action = BY_KEY.get(event.key) ?? BY_KEY.get(event.key.toLowerCase()) ?? null;
  if (action === 'open' && event.key === 'Enter') {
    const element = event.target as HTMLElement | null;
    if (element && typeof element.closest === 'function' && element.closest('button, a, summary')) return null;
  }
  return action;
}

/** The row the cursor moves to: j/k step through the page and stop at its ends. */
export function moveCursor(cursor: number, count: number, action: 'next' | 'previous'): number {
  if (count === 0) return -1;
  if (cursor < 0) return action === 'next' ? 0 : count - 1;
  return Math.min(count - 1, Math.max(0, cursor + (action === 'next' ? 1 : -1)));
}
