import { readFileSync } from 'node:fs';
import { createInstance, type TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '@/lib/locales';
import { CHANGE_KINDS, fieldLabel, fieldValueLabel, reportText, STATEMENT_TYPES, STATUSES, statementTypeLabel, statusLabel } from './labels';

const strings = (locale: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../locales/${locale}/backoffice.json`, import.meta.url), 'utf8')) as Record<string, unknown>;

async function tIn(locale: string): Promise<TFunction> {
  const i18n = createInstance();
  await i18n.init({ lng: locale, resources: { [locale]: { translation: strings(locale) } }, interpolation: { escapeValue: false } });
  return i18n.t;
}

describe('the names of the codes staff read', () => {
  it('name every status, statement kind and member change in every language', async () => {
    for (const locale of LOCALES) {
      const t = await tIn(locale);
      for (const [prefix, codes] of [
        ['bo.labels.status', STATUSES],
        ['bo.labels.statementType', STATEMENT_TYPES],
        ['bo.labels.changeKind', CHANGE_KINDS],
      ] as const) {
        for (const code of codes) expect(t(`${prefix}.${code}` as never), `${locale} ${code}`).not.toBe(`${prefix}.${code}`);
      }
    }
  });

  it('show a name instead of the code, and an unknown code as it is', async () => {
    const t = await tIn('en');
    expect(statusLabel(t, 'PAID')).toBe('Paid');
    expect(statementTypeLabel(t, 'finish_bonus')).toBe('Bonus ended');
    expect(statusLabel(t, 'SOMETHING_NEW')).toBe('SOMETHING_NEW');
    const th = await tIn('th');
    expect(statusLabel(th, 'AWAITING_APPROVAL')).toBe('รออนุมัติ');
  });

  it("name a report's codes by their column, and leave other text alone", async () => {
    const t = await tIn('en');
    expect(reportText(t, 'channel', 'bank_qr')).toBe('Bank QR (KBANK / Lao QR)');
    expect(reportText(t, 'status', 'REJECTED')).toBe('Rejected');
    expect(reportText(t, 'review', '')).toBe('—');
    expect(reportText(t, 'action', 'withdrawal.approve')).toBe('Withdrawal approved');
    expect(reportText(t, 'role', 'cashier')).toBe('Cashier');
    expect(reportText(t, 'kind', 'invite')).toBe('Invite');
    expect(reportText(t, 'bank', 'SCB')).toBe('SCB');
  });

  it("name an audit row's fields and the codes they hold", async () => {
    const t = await tIn('en');
    expect(fieldLabel(t, 'reviewStatus')).toBe('Review');
    expect(fieldLabel(t, 'somethingNew')).toBe('somethingNew');
    expect(fieldValueLabel(t, 'status', 'POSTED')).toBe('Posted');
    expect(fieldValueLabel(t, 'outcome', 'MATCHED_BY_HAND')).toBe('Matched by hand');
    expect(fieldValueLabel(t, 'role', 'cashier')).toBe('Cashier');
    expect(fieldValueLabel(t, 'direction', 'debit')).toBe('Debit');
    expect(fieldValueLabel(t, 'reason', 'goodwill')).toBeNull();
    expect(fieldValueLabel(t, 'status', 12)).toBeNull();
  });
});
