import { describe, expect, it } from 'vitest';
import { receivedInPeriod } from './periods';

const at = (iso: string) => ({ updatedAt: iso });

describe('receivedInPeriod', () => {
  // Sunday 22 Nov 2026 01:00 in Bangkok.
  const now = new Date('2026-11-21T18:00:00Z');
  const received = [
    at('2026-11-21T17:30:00Z'), // 22 Nov 00:30 Bangkok: today
    at('2026-11-21T16:30:00Z'), // 21 Nov 23:30 Bangkok: yesterday, same week
    at('2026-11-15T16:59:00Z'), // Sun 15 Nov 23:59 Bangkok: last week
  ];
  it('counts today in Bangkok for day bonuses', () => {
    expect(receivedInPeriod('day', received, now)).toBe(1);
  });
  it('counts this Monday-based week for week bonuses', () => {
    expect(receivedInPeriod('week', received, now)).toBe(2);
  });
  it('counts everything for limit bonuses', () => {
    expect(receivedInPeriod('limit', received, now)).toBe(3);
  });
});
