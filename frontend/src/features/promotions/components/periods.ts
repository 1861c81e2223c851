/**
 * Received counts of a bonus (spec §4): limit counts every receipt, day the receipts of today,
 * week those of this week (Monday first), in the operator's time zone like the server.
 */
export const OPERATOR_TIME_ZONE = 'Asia/Bangkok';

type Parts = { year: number; month: number; day: number };

function localDate(at: Date, timeZone: string): Parts {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(at)
    .reduce<Record<string, string>>((acc, part) => ({ ...acc, [part.type]: part.value }), {});
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) };
}

/** Days since 1970-01-01 of a local calendar date. */
function dayNumber({ year, month, day }: Parts): number {
  return Math.floor(Date.UTC(year, month - 1, day) / 86_400_000);
}

/** Monday-based week number (1970-01-01 was a Thursday, so shift by 3 days). */
function weekNumber(parts: Parts): number {
  return Math.floor((dayNumber(parts) + 3) / 7);
}

export function receivedInPeriod(
  type: 'limit' | 'day' | 'week',
  received: readonly { updatedAt: string }[],
  now: Date = new Date(),
  timeZone: string = OPERATOR_TIME_ZONE,
): number {
  if (type === 'limit') return received.length;
  const today = localDate(now, timeZone);
  const key = type === 'day' ? dayNumber : weekNumber;
  return received.filter((r) => key(localDate(new Date(r.updatedAt), timeZone)) === key(today)).length;
}
