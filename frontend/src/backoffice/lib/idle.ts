/**
 * The browser's side of the idle lock: when a staff member counts as idle (no pointer, key,
 * wheel or touch in any tab for the server's idle minutes), and when the page tells the server
 * it is still in use (a human active, but no call made lately: the server would lock it too).
 */

/** Activity is written to the shared clock at most this often (a mouse move fires a lot). */
export const RECORD_EVERY_MS = 5_000;
/** How often the page looks whether the idle time has run out. */
export const CHECK_EVERY_MS = 10_000;
/** An active staff member's page keeps the server's session in use this often. */
export const KEEP_ALIVE_EVERY_MS = 5 * 60_000;

export function isIdle(now: number, lastActivity: number, idleMinutes: number): boolean {
  return now - lastActivity >= idleMinutes * 60_000;
}

/** Whether to tell the server the session is in use: the human was active since the last time
 * and that was long enough ago. */
export function shouldKeepAlive(now: number, lastActivity: number, lastKeepAlive: number): boolean {
  return lastActivity > lastKeepAlive && now - lastKeepAlive >= KEEP_ALIVE_EVERY_MS;
}
