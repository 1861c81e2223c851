/**
 * What the play-limits screen reads out of the protection state and sends back: the form's
 * values, which change applies at once and which after the 24-hour cooling-off (the server's
 * rule, pao.protection.service), and the choices of time-out and self-exclusion.
 */
import { parseAmount } from '@/lib/money';
import type { Exclusion, Limit, LimitsBody } from './api/protection';

export const PERIODS = ['day', 'week', 'month'] as const;
export type Period = (typeof PERIODS)[number];
export type LimitForm = Record<Period, string>;

/** Time-out: 1 to 30 days. */
export const TIMEOUT_MIN_DAYS = 1;
export const TIMEOUT_MAX_DAYS = 30;
/** Self-exclusion: 6 months, 1 year, 5 years, or indefinite (null). */
export const SELF_EXCLUSION_CHOICES = [
  { days: 182, key: 'months6' },
  { days: 365, key: 'year1' },
  { days: 1825, key: 'years5' },
  { days: null, key: 'indefinite' },
] as const;
export type SelfExclusionKey = (typeof SELF_EXCLUSION_CHOICES)[number]['key'];

/** The member's latest ask for a period: the raise or removal waiting, else the limit in force. */
export function latestAsk(limit: Limit): number | null {
  return limit.pendingFrom ? (limit.pending ?? null) : (limit.amount ?? null);
}

function byPeriod(limits: readonly Limit[], period: Period): Limit | undefined {
  return limits.find((limit) => limit.period === period);
}

/** The form as the member last asked it ('' = no limit). */
export function formOf(limits: readonly Limit[]): LimitForm {
  const value = (period: Period) => {
    const limit = byPeriod(limits, period);
    const ask = limit ? latestAsk(limit) : null;
    return ask === null ? '' : String(ask);
  };
  return { day: value('day'), week: value('week'), month: value('month') };
}

export type Change = { period: Period; to: number | null; when: 'now' | 'later' };
export type LimitsCheck =
  | { ok: true; body: LimitsBody; changes: Change[] }
  | { ok: false; invalid: Period[] };

/**
 * The request for the form, or the fields that are not a positive amount. Every period is sent
 * (an absent one would mean "no limit"); one left as last asked changes nothing on the server.
 * A lower limit, a first one or the one in force again (a raise waiting is dropped) applies now;
 * a higher one or a removal after 24 hours.
 */
export function checkLimits(limits: readonly Limit[], form: LimitForm): LimitsCheck {
  const invalid: Period[] = [];
  const body: Record<Period, number | null> = { day: null, week: null, month: null };
  const changes: Change[] = [];
  for (const period of PERIODS) {
    const text = form[period].trim();
    const value = text === '' ? null : parseAmount(text);
    if (text !== '' && (value === null || value <= 0)) {
      invalid.push(period);
      continue;
    }
    body[period] = value;
    const limit = byPeriod(limits, period);
    const inForce = limit?.amount ?? null;
    const asked = limit ? latestAsk(limit) : null;
    if (value === asked) continue;
    const tighter = value !== null && (inForce === null || value <= inForce);
    changes.push({ period, to: value, when: tighter ? 'now' : 'later' });
  }
  return invalid.length ? { ok: false, invalid } : { ok: true, body, changes };
}

/** How a running exclusion reads on screen. */
export type ExclusionView =
  | { kind: 'timeout'; until: string }
  /** Self-exclusion: `until` once the member asked to end it; `from` when they may ask. */
  | { kind: 'self_exclusion'; until: string | null; from: string | null; canRequestEnd: boolean };

export function exclusionView(exclusion: Exclusion): ExclusionView {
  if (exclusion.kind === 'timeout') {
    return { kind: 'timeout', until: exclusion.until ?? exclusion.endsAt ?? exclusion.startsAt };
  }
  return {
    kind: 'self_exclusion',
    until: exclusion.until ?? null,
    from: exclusion.endRequestedAt ? null : (exclusion.endsAt ?? null),
    canRequestEnd: exclusion.canRequestEnd,
  };
}

/** A time-out length the server takes, from what the member typed or picked. */
export function timeoutDays(input: string): number | null {
  if (!/^\d{1,2}$/.test(input.trim())) return null;
  const days = Number(input.trim());
  return days >= TIMEOUT_MIN_DAYS && days <= TIMEOUT_MAX_DAYS ? days : null;
}
