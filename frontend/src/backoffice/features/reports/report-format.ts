/**
 * How a report's cells read: the server says each column's kind (money in major units, a
 * count, a share in percent, seconds, a day or text) and this turns a cell into its text.
 */
import { formatMoney, type Currency } from '@/lib/money';

export type ColumnKind = 'day' | 'text' | 'count' | 'money' | 'seconds' | 'percent';
export type Cell = string | number | null;

/** Seconds as the largest two units: "2 h 05 min", "3 min 20 s", "45 s". */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${s} s`;
}

export function formatCell(kind: ColumnKind, value: Cell, currency: Currency, locale: string): string {
  if (value === null || value === '') return '—';
  switch (kind) {
    case 'money':
      return formatMoney(Number(value), currency);
    case 'count':
      return Number(value).toLocaleString(locale);
    case 'percent':
      return `${Number(value).toLocaleString(locale, { maximumFractionDigits: 1 })} %`;
    case 'seconds':
      return duration(Number(value));
    default:
      return String(value);
  }
}

/** Whether a column's cells line up on the right (numbers). */
export const numeric = (kind: ColumnKind) => kind === 'money' || kind === 'count' || kind === 'percent' || kind === 'seconds';
