import { describe, expect, it } from 'vitest';
import { addDays, operatorToday, readRange, writeRange } from './range';

describe('dashboard range in the URL', () => {
  it('defaults to today', () => {
    expect(readRange(new URLSearchParams(), '2026-11-27')).toEqual({ kind: 'today', from: '2026-11-27', to: '2026-11-27' });
  });

  it('counts presets back from today, inclusive', () => {
    expect(readRange(new URLSearchParams('range=7d'), '2026-11-27')).toEqual({ kind: '7d', from: '2026-11-21', to: '2026-11-27' });
    expect(readRange(new URLSearchParams('range=30d'), '2026-03-01').from).toBe('2026-01-31');
    expect(readRange(new URLSearchParams('range=yesterday'), '2026-03-01')).toEqual({ kind: 'yesterday', from: '2026-02-28', to: '2026-02-28' });
    expect(writeRange(readRange(new URLSearchParams('range=yesterday'), '2026-03-01')).toString()).toBe('range=yesterday');
  });

  it('round-trips a custom range and ignores a broken one', () => {
    const custom = { kind: 'custom' as const, from: '2026-10-01', to: '2026-10-31' };
    expect(readRange(writeRange(custom), '2026-11-27')).toEqual(custom);
    expect(readRange(new URLSearchParams('range=custom&from=x'), '2026-11-27').kind).toBe('today');
  });

  it('reads today on the Bangkok clock', () => {
    expect(operatorToday(new Date('2026-11-20T16:59:00Z'))).toBe('2026-11-20');
    expect(operatorToday(new Date('2026-11-20T17:00:00Z'))).toBe('2026-11-21');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
