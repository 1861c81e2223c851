/**
 * Money on screen. The wire carries major units (baht, kip) as JSON numbers with at most
 * 2 decimals; we only format and parse here, never compute balances.
 */
export type Currency = 'THB' | 'LAK';

/** `amount` rounded to `decimals` places, grouped by thousands: 1234.5 → "1,234.50". Written out
 * rather than with Intl.NumberFormat, whose first use costs tens of milliseconds of a cheap
 * phone's CPU before the balance can be shown; a test holds it to Intl's output (en-US). */
function grouped(amount: number, decimals: number): string {
  // Amounts carry at most 2 decimals, so scaling to minor units and rounding is exact enough.
  const minor = Math.round(Math.abs(amount) * 10 ** decimals);
  const digits = String(minor).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals).replace(/\B(?=(\d{3})+$)/g, ',');
  const text = decimals ? `${whole}.${digits.slice(-decimals)}` : whole;
  return amount < 0 && minor !== 0 ? `-${text}` : text;
}

/** 1234.5 → "1,234.50"; kip has no decimals on screen: 1234.5 LAK → "1,235". */
export function formatMoney(amount: number, currency: Currency): string {
  if (!Number.isFinite(amount)) return '-';
  return grouped(amount, currency === 'LAK' ? 0 : 2);
}

const AMOUNT_RE = /^\d+(\.\d{1,2})?$/;

/** Parses what a member typed as an amount: digits with up to 2 decimals, else null. */
export function parseAmount(input: string): number | null {
  const text = input.trim().replace(/,/g, '');
  if (!AMOUNT_RE.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** Adds major-unit amounts in minor units so 0.1 + 0.2 shows as 0.30, not 0.30000000000000004. */
export function sumMoney(amounts: readonly number[]): number {
  const cents = amounts.reduce((total, amount) => total + Math.round(amount * 100), 0);
  return cents / 100;
}
