/**
 * When the reality check is next due: every `minutes` of the login session, counted from the
 * login's start on the server's clock. The app asks the server once when it starts (and once
 * each time a reminder is due); it measures the browser clock's offset from the server's on the
 * first answer and then lets the browser's clock run, never polling.
 */

export const REALITY_INTERVALS = [15, 30, 45, 60, 90, 120] as const;
const MINUTE_MS = 60_000;

/** The first reminder strictly after `now`: login + k × interval, k ≥ 1 (epoch ms). */
export function nextDueAt(loginAt: number, minutes: number, now: number): number {
  const step = minutes * MINUTE_MS;
  const passed = Math.max(0, now - loginAt);
  return loginAt + (Math.floor(passed / step) + 1) * step;
}

/** Milliseconds to wait until the next reminder, `serverNow` being the server's time now (the
 * browser's clock corrected by the offset measured when the app first asked). */
export function delayUntilDue(loginAt: number, minutes: number, serverNow: number): number {
  return nextDueAt(loginAt, minutes, serverNow) - serverNow;
}

/** The browser clock's offset from the server's: server time = browser time + skew. */
export function clockSkew(serverNow: number, browserNow: number): number {
  return serverNow - browserNow;
}

/** Hours and minutes logged in, for the reminder's text. */
export function elapsed(loginAt: number, now: number): { hours: number; minutes: number } {
  const total = Math.max(0, Math.floor((now - loginAt) / MINUTE_MS));
  return { hours: Math.floor(total / 60), minutes: total % 60 };
}
