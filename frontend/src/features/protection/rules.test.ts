import { describe, expect, it } from 'vitest';
import type { Exclusion, Limit } from './api/protection';
import { checkLimits, exclusionView, formOf, latestAsk, timeoutDays } from './rules';

const limit = (period: Limit['period'], over: Partial<Limit> = {}): Limit => ({
  period,
  amount: null,
  pending: null,
  pendingFrom: null,
  deposited: 0,
  remaining: null,
  ...over,
});

const LATER = '2026-12-07T18:00:00Z';

describe('the limits form', () => {
  it('shows what the member last asked: a waiting raise or removal, else the limit in force', () => {
    const limits = [
      limit('day', { amount: 1000, pending: 5000, pendingFrom: LATER }),
      limit('week', { amount: 3000, pending: null, pendingFrom: LATER }),
      limit('month', { amount: 9000.5 }),
    ];
    expect(latestAsk(limits[0]!)).toBe(5000);
    expect(latestAsk(limits[1]!)).toBeNull();
    expect(formOf(limits)).toEqual({ day: '5000', week: '', month: '9000.5' });
  });

  it('sends every period and says which change applies now and which after 24 hours', () => {
    const limits = [limit('day', { amount: 1000 }), limit('week', { amount: 3000 }), limit('month')];
    const check = checkLimits(limits, { day: '500', week: '', month: '20,000' });
    expect(check).toEqual({
      ok: true,
      body: { day: 500, week: null, month: 20000 },
      changes: [
        { period: 'day', to: 500, when: 'now' }, // lower: at once
        { period: 'week', to: null, when: 'later' }, // removal: after the cooling-off
        { period: 'month', to: 20000, when: 'now' }, // a first limit: at once
      ],
    });
    const raise = checkLimits(limits, { day: '1500', week: '3000', month: '' });
    expect(raise.ok && raise.changes).toEqual([{ period: 'day', to: 1500, when: 'later' }]);
  });

  it('leaves a waiting raise as it is when the form is saved unchanged', () => {
    const limits = [limit('day', { amount: 1000, pending: 5000, pendingFrom: LATER }), limit('week'), limit('month')];
    const check = checkLimits(limits, formOf(limits));
    expect(check).toEqual({ ok: true, body: { day: 5000, week: null, month: null }, changes: [] });
    // Back to the limit in force: the raise is dropped at once.
    const back = checkLimits(limits, { day: '1000', week: '', month: '' });
    expect(back.ok && back.changes).toEqual([{ period: 'day', to: 1000, when: 'now' }]);
  });

  it('refuses what is not a positive amount with at most 2 decimals', () => {
    const limits = [limit('day'), limit('week'), limit('month')];
    expect(checkLimits(limits, { day: '0', week: 'abc', month: '1.234' })).toEqual({
      ok: false,
      invalid: ['day', 'week', 'month'],
    });
    expect(checkLimits(limits, { day: ' 100 ', week: '', month: '' }).ok).toBe(true);
  });
});

describe('a running break', () => {
  const base: Exclusion = {
    kind: 'self_exclusion',
    startsAt: '2026-01-01T00:00:00Z',
    endsAt: '2026-07-02T00:00:00Z',
    until: null,
    endRequestedAt: null,
    canRequestEnd: false,
  };

  it('a time-out ends by itself', () => {
    expect(exclusionView({ ...base, kind: 'timeout', until: LATER, endsAt: LATER })).toEqual({
      kind: 'timeout',
      until: LATER,
    });
  });

  it('a self-exclusion lasts until asked, from the end of its period; then ends 24 hours later', () => {
    expect(exclusionView(base)).toEqual({ kind: 'self_exclusion', until: null, from: base.endsAt, canRequestEnd: false });
    expect(exclusionView({ ...base, canRequestEnd: true }).kind).toBe('self_exclusion');
    expect(exclusionView({ ...base, endRequestedAt: '2026-07-03T00:00:00Z', until: '2026-07-04T00:00:00Z' })).toEqual({
      kind: 'self_exclusion',
      until: '2026-07-04T00:00:00Z',
      from: null,
      canRequestEnd: false,
    });
    // Indefinite: no date to ask from.
    expect(exclusionView({ ...base, endsAt: null })).toMatchObject({ until: null, from: null });
  });

  it('a time-out is 1 to 30 whole days', () => {
    expect([timeoutDays('1'), timeoutDays('30'), timeoutDays(' 7 ')]).toEqual([1, 30, 7]);
    expect([timeoutDays('0'), timeoutDays('31'), timeoutDays('2.5'), timeoutDays('')]).toEqual([null, null, null, null]);
  });
});
