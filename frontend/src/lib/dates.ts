/** Dates on screen: DD/MM/YYYY HH:mm:ss in the browser's time zone, and relative time (spec §9). */
import { intlTag, type Locale } from './locales';

function toDate(value: string | number | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

const pad = (n: number) => String(n).padStart(2, '0');

export function formatDateTime(value: string | number | Date): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return '-';
  return (
    `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  );
}

export function formatDate(value: string | number | Date): string {
  return formatDateTime(value).slice(0, 10);
}

/** Units of spec §9, largest first, in seconds. */
export const RELATIVE_UNITS = [
  ['year', 31536000],
  ['month', 2592000],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
] as const satisfies ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]>;

export type RelativeUnit = (typeof RELATIVE_UNITS)[number][0];

/** The largest unit that fits the distance; negative values are in the past. */
export function relativeParts(
  value: string | number | Date,
  now: number = Date.now(),
): { value: number; unit: RelativeUnit } {
  const seconds = Math.round((toDate(value).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  for (const [unit, size] of RELATIVE_UNITS) {
    if (abs >= size) return { value: Math.sign(seconds) * Math.floor(abs / size), unit };
  }
  return { value: 0, unit: 'second' };
}

const relFormatters = new Map<Locale, Intl.RelativeTimeFormat>();

/** "3 minutes ago" in the given language. */
export function formatRelative(
  value: string | number | Date,
  locale: Locale,
  now: number = Date.now(),
): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return '';
  let f = relFormatters.get(locale);
  if (!f) {
    f = new Intl.RelativeTimeFormat(intlTag(locale), { numeric: 'auto' });
    relFormatters.set(locale, f);
  }
  const parts = relativeParts(d, now);
  return f.format(parts.value, parts.unit);
}

/** Whether this browser's Intl knows the language (Chromium ships no Lao relative-time data). */
export function hasIntlRelative(locale: Locale): boolean {
  return Intl.RelativeTimeFormat.supportedLocalesOf(intlTag(locale)).length > 0;
}

/** A day as staff type it, DD/MM/YYYY (Thai operators' order; `/`, `-` or `.` between, one or
 * two digits of day and month), as YYYY-MM-DD; null when it is no day of the calendar. A year
 * of the Buddhist era (2400 and later: 2569 is 2026) is read as such, since Thai staff often
 * write one. */
export function parseDay(text: string): string | null {
  const match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text.trim());
  if (!match) return null;
  const day = Number(match[1]);
  const month = Number(match[2]);
  let year = Number(match[3]);
  if (year >= 2400) year -= 543;
  if (year < 1900 || month < 1 || month > 12 || day < 1) return null;
  // Day 0 of the next month is the last day of this one (leap years included).
  if (day > new Date(year, month, 0).getDate()) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** YYYY-MM-DD as staff read it, DD/MM/YYYY ('' for anything else). */
export function showDay(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : '';
}
