/**
 * Money on screen. The wire carries major units (baht, kip) as JSON numbers with at most
 * 2 decimals; we only format and parse here, never compute balances.
 */
export type Currency = 'THB' | 'LAK';

const formatters = new Map<number, Intl.NumberFormat>();

function formatter(decimals: number): Intl.NumberFormat {
  let f = formatters.get(decimals);
  if (!f) {
    // en-US grouping (1,234.50) is what Thai and Lao banking apps show as well.
    f = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    formatters.set(decimals, f);
  }
  return f;
}

/** 1234.5 → "1,234.50"; kip has no decimals on screen: 1234.5 LAK → "1,235". */
export function formatMoney(amount: number, currency: Currency = 'THB'): string {
  if (!Number.isFinite(amount)) return '-';
  const value = formatter(currency === 'LAK' ? 0 : 2).format(amount);
  return value === '-0.00' || value === '-0' ? value.slice(1) : value;
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
