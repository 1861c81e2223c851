import { describe, expect, it } from 'vitest';
import { formatMoney, parseAmount, sumMoney } from './money';

describe('formatMoney', () => {
  it('shows baht with 2 decimals and grouping', () => {
    expect(formatMoney(1234.5, 'THB')).toBe('1,234.50');
    expect(formatMoney(0, 'THB')).toBe('0.00');
    expect(formatMoney(1000000, 'THB')).toBe('1,000,000.00');
    expect(formatMoney(0.1 + 0.2, 'THB')).toBe('0.30');
  });

  it('shows kip without decimals', () => {
    expect(formatMoney(1234.5, 'LAK')).toBe('1,235');
    expect(formatMoney(50000, 'LAK')).toBe('50,000');
  });

  it('writes what Intl.NumberFormat (en-US) writes, for any amount with up to 2 decimals', () => {
    const intl = (decimals: number) =>
      new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    const samples = [0.01, 0.5, 0.99, 1, 999.99, 1000, 99999.5, 123456789.12, -0.5, -1234.5, -1000000];
    for (let i = 0; i < 2000; i += 1) samples.push(((next() % 2_000_000_000) - 1_000_000_000) / 100);
    for (const amount of samples) {
      expect(formatMoney(amount, 'THB'), String(amount)).toBe(intl(2).format(amount));
      expect(formatMoney(amount, 'LAK'), String(amount)).toBe(intl(0).format(amount));
    }
  });

  it('never shows a negative zero or NaN', () => {
    expect(formatMoney(-0.001, 'THB')).toBe('0.00');
    expect(formatMoney(Number.NaN, 'THB')).toBe('-');
  });
});

describe('parseAmount', () => {
  it('accepts digits with up to 2 decimals', () => {
    expect(parseAmount('100')).toBe(100);
    expect(parseAmount(' 1,000.50 ')).toBe(1000.5);
    expect(parseAmount('0.01')).toBe(0.01);
  });

  it('refuses anything else', () => {
    for (const bad of ['', 'abc', '1.234', '-5', '1e3', '.5', 'NaN', 'Infinity']) {
      expect(parseAmount(bad)).toBeNull();
    }
  });
});

describe('sumMoney', () => {
  it('adds in minor units', () => {
    expect(sumMoney([0.1, 0.2])).toBe(0.3);
    expect(sumMoney([100.55, 0, 20.45])).toBe(121);
    expect(sumMoney([])).toBe(0);
  });
});
