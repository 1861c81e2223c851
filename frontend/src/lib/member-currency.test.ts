import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetMemberCurrency, formatMemberMoney, memberCurrency, rememberMemberCurrency, variantCurrency } from './member-currency';
import { clearSession, STORAGE_KEYS } from './storage';

afterEach(() => {
  forgetMemberCurrency();
  vi.unstubAllGlobals();
});

describe('the member currency', () => {
  it("is the variant's usual currency until the wallet says", () => {
    expect(variantCurrency(true)).toBe('LAK');
    expect(variantCurrency(false)).toBe('THB');
    expect(memberCurrency(true)).toBe('LAK');
    expect(memberCurrency(false)).toBe('THB');
    // No document in unit tests: the Thai variant, baht with decimals.
    expect(formatMemberMoney(1234.5)).toBe('1,234.50');
  });

  it("is the wallet's currency once known, whatever the variant; kip without decimals", () => {
    rememberMemberCurrency('LAK');
    expect(memberCurrency(false)).toBe('LAK');
    expect(formatMemberMoney(1234.5)).toBe('1,235');
    expect(formatMemberMoney(50000)).toBe('50,000');
    rememberMemberCurrency('THB');
    expect(memberCurrency(true)).toBe('THB');
    expect(formatMemberMoney(50000)).toBe('50,000.00');
  });

  it('ignores a currency it does not know', () => {
    rememberMemberCurrency('LAK');
    rememberMemberCurrency('USD');
    rememberMemberCurrency(undefined);
    expect(memberCurrency(false)).toBe('LAK');
  });

  it('is kept with the session and forgotten when it ends', () => {
    const stored = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
      removeItem: (key: string) => void stored.delete(key),
    });
    vi.stubGlobal('sessionStorage', { removeItem: () => undefined });
    rememberMemberCurrency('LAK');
    expect(stored.get(STORAGE_KEYS.currency)).toBe('LAK');
    clearSession();
    expect(stored.has(STORAGE_KEYS.currency)).toBe(false);
    expect(memberCurrency(false)).toBe('THB');
    expect(memberCurrency(true)).toBe('LAK');
  });
});
