/** Bank account rules and formats (spec §5, §9). */

/** Banks whose account name must be English letters and spaces only. */
export const ENGLISH_NAME_BANKS: readonly string[] = ['KTB', 'TMB', 'BBL'];

export function needsEnglishName(bankCode: string | null | undefined): boolean {
  return !!bankCode && ENGLISH_NAME_BANKS.includes(bankCode.toUpperCase());
}

export function isEnglishName(name: string): boolean {
  return /^[A-Za-z ]+$/.test(name);
}

/** 10-digit account numbers are shown 3-3-4; any other value as stored. */
export function formatBankAccount(accountNo: string | null | undefined): string {
  const digits = (accountNo ?? '').trim();
  if (!/^\d{10}$/.test(digits)) return digits;
  return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** Bank account name as sent: first and last name trimmed and joined with one space. */
export function joinAccountName(first: string, last: string): string {
  return [first.trim(), last.trim()].filter(Boolean).join(' ');
}

/** Bank name in the member's language: English for en, else the Thai name (spec §2). */
export function bankName(bank: { nameTH: string; nameEN: string } | null | undefined, locale: string): string {
  if (!bank) return '';
  return locale === 'en' ? bank.nameEN || bank.nameTH : bank.nameTH || bank.nameEN;
}
