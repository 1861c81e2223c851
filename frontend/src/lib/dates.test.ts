import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatRelative, parseDay, relativeParts, RELATIVE_UNITS, showDay } from './dates';

describe('formatDateTime', () => {
  it('formats DD/MM/YYYY HH:mm:ss in local time', () => {
    expect(formatDateTime(new Date(2024, 0, 5, 7, 8, 9))).toBe('05/01/2024 07:08:09');
    expect(formatDateTime(new Date(2025, 11, 31, 23, 59, 59))).toBe('31/12/2025 23:59:59');
    expect(formatDate(new Date(2025, 1, 3, 1, 2, 3))).toBe('03/02/2025');
  });

  it('accepts ISO strings and shows a dash for garbage', () => {
    const iso = new Date(2024, 5, 1, 12, 0, 0).toISOString();
    expect(formatDateTime(iso)).toBe('01/06/2024 12:00:00');
    expect(formatDateTime('not a date')).toBe('-');
  });
});

describe('relative time', () => {
  const now = Date.UTC(2024, 0, 1, 0, 0, 0);
  const ago = (seconds: number) => now - seconds * 1000;

  it('uses the units of spec §9', () => {
    expect(RELATIVE_UNITS).toEqual([
      ['year', 31536000],
      ['month', 2592000],
      ['day', 86400],
      ['hour', 3600],
      ['minute', 60],
      ['second', 1],
    ]);
  });

  it('picks the largest unit that fits', () => {
    expect(relativeParts(ago(0), now)).toEqual({ value: 0, unit: 'second' });
    expect(relativeParts(ago(59), now)).toEqual({ value: -59, unit: 'second' });
    expect(relativeParts(ago(60), now)).toEqual({ value: -1, unit: 'minute' });
    expect(relativeParts(ago(3599), now)).toEqual({ value: -59, unit: 'minute' });
    expect(relativeParts(ago(7200), now)).toEqual({ value: -2, unit: 'hour' });
    expect(relativeParts(ago(86400 * 3), now)).toEqual({ value: -3, unit: 'day' });
    expect(relativeParts(ago(2592000 * 2), now)).toEqual({ value: -2, unit: 'month' });
    expect(relativeParts(ago(31536000 * 5 + 10), now)).toEqual({ value: -5, unit: 'year' });
    expect(relativeParts(now + 120_000, now)).toEqual({ value: 2, unit: 'minute' });
  });

  it('speaks the member language', () => {
    expect(formatRelative(ago(180), 'en', now)).toBe('3 minutes ago');
    expect(formatRelative(ago(7200), 'th', now)).toMatch(/2/);
    expect(formatRelative(ago(7200), 'th', now)).toMatch(/ชั่วโมง/);
    expect(formatRelative('garbage', 'en', now)).toBe('');
  });
});

describe('a day typed as DD/MM/YYYY', () => {
  it('reads day first, as Thai operators write it', () => {
    expect(parseDay('03/12/2026')).toBe('2026-12-03');
    expect(parseDay(' 3/2/2026 ')).toBe('2026-02-03');
    expect(parseDay('31.01.2026')).toBe('2026-01-31');
    expect(parseDay('29-02-2028')).toBe('2028-02-29');
  });

  it('reads a Buddhist-era year (2569 is 2026)', () => {
    expect(parseDay('06/12/2569')).toBe('2026-12-06');
  });

  it('refuses what is no day: month first, 31 November, 29 February of a common year, garbage', () => {
    expect(parseDay('12/31/2026')).toBeNull();
    expect(parseDay('31/11/2026')).toBeNull();
    expect(parseDay('29/02/2026')).toBeNull();
    expect(parseDay('2026-12-03')).toBeNull();
    expect(parseDay('')).toBeNull();
    expect(parseDay('00/01/2026')).toBeNull();
  });

  it('shows a stored day back as DD/MM/YYYY', () => {
    expect(showDay('2026-12-03')).toBe('03/12/2026');
    expect(showDay('')).toBe('');
    expect(showDay(parseDay('7/8/2026') ?? '')).toBe('07/08/2026');
  });
});
