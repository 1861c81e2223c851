import { describe, expect, it } from 'vitest';
import { bankName, formatBankAccount, isEnglishName, joinAccountName, needsEnglishName } from './bank';

describe('formatBankAccount', () => {
  it('shows 10 digits as 3-3-4', () => {
    expect(formatBankAccount('1234567890')).toBe('123-456-7890');
  });

  it('leaves other numbers as stored', () => {
    expect(formatBankAccount('123456789012')).toBe('123456789012');
    expect(formatBankAccount('12345')).toBe('12345');
    expect(formatBankAccount(null)).toBe('');
  });
});

describe('English-name rule', () => {
  it('applies to KTB, TMB and BBL only', () => {
    expect(['KTB', 'TMB', 'BBL', 'ktb'].every(needsEnglishName)).toBe(true);
    expect(['SCB', 'KBANK', 'BCEL', '', null].some(needsEnglishName)).toBe(false);
  });

  it('allows English letters and spaces only', () => {
    expect(isEnglishName('SOMCHAI JAIDEE')).toBe(true);
    expect(isEnglishName('somchai jaidee')).toBe(true);
    expect(isEnglishName('สมชาย ใจดี')).toBe(false);
    expect(isEnglishName('JOHN 2')).toBe(false);
    expect(isEnglishName('')).toBe(false);
  });

  it('joins first and last name trimmed with one space', () => {
    expect(joinAccountName('  SOMCHAI ', ' JAIDEE  ')).toBe('SOMCHAI JAIDEE');
    expect(joinAccountName('SOMCHAI', '')).toBe('SOMCHAI');
  });

  it('names the bank in the member language', () => {
    const bank = { nameTH: 'กรุงไทย', nameEN: 'Krungthai' };
    expect(bankName(bank, 'th')).toBe('กรุงไทย');
    expect(bankName(bank, 'la')).toBe('กรุงไทย');
    expect(bankName(bank, 'en')).toBe('Krungthai');
  });
});
