import { readdirSync, readFileSync } from 'node:fs';
import { createInstance, type TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { currencyUnit } from './currency-unit';
import { LOCALES, type Locale } from './locales';
import type { Currency } from './money';

const localesDir = new URL('../locales/', import.meta.url);
const partsOf = (locale: Locale): Record<string, unknown> =>
  Object.fromEntries(
    readdirSync(new URL(`${locale}/`, localesDir))
      .filter((name) => name.endsWith('.json'))
      .map((name) => [name.slice(0, -'.json'.length), JSON.parse(readFileSync(new URL(`${locale}/${name}`, localesDir), 'utf8'))]),
  );

/** `t` in `locale`, over every strings file (each a fallback namespace, as in the app). */
async function translator(locale: Locale): Promise<TFunction> {
  const parts = partsOf(locale);
  const i18n = createInstance();
  await i18n.init({
    lng: locale,
    resources: { [locale]: parts as never },
    defaultNS: 'translation',
    fallbackNS: Object.keys(parts).filter((name) => name !== 'translation'),
    interpolation: { escapeValue: false },
  });
  return i18n.t;
}

const NAMES: Record<Locale, Record<Currency, string>> = {
  th: { THB: 'บาท', LAK: 'กีบ' },
  la: { THB: 'ບາດ', LAK: 'ກີບ' },
  en: { THB: 'baht', LAK: 'kip' },
};

describe('currencyUnit', () => {
  it('names each currency in each language', async () => {
    for (const locale of LOCALES) {
      const t = await translator(locale);
      expect(currencyUnit(t, 'THB')).toBe(NAMES[locale].THB);
      expect(currencyUnit(t, 'LAK')).toBe(NAMES[locale].LAK);
    }
  });

  it('fills the texts that say the unit: kip for a kip amount, baht as before for baht', async () => {
    const la = await translator('la');
    expect(la('withdraw.amount', { unit: currencyUnit(la, 'LAK') })).toBe('ຈຳນວນເງິນ (ກີບ)');
    expect(la('transfer.minHint', { min: '1', unit: currencyUnit(la, 'LAK') })).toBe('ຂັ້ນຕ່ຳ 1 ກີບ');
    const th = await translator('th');
    expect(th('withdraw.amount', { unit: currencyUnit(th, 'THB') })).toBe('จำนวนเงิน (บาท)');
    expect(th('slips.credited', { amount: '120.00', unit: currencyUnit(th, 'THB') })).toBe(
      'ตรวจสอบสลิปเรียบร้อย เติมเงิน 120.00 บาทเข้ากระเป๋าแล้ว',
    );
    const en = await translator('en');
    expect(en('promotions.bonus.received', { amount: '50,000', unit: currencyUnit(en, 'LAK') })).toBe(
      'Bonus of 50,000 kip added to your wallet.',
    );
  });
});

// A currency's name or sign, not inside the word for "role" (บทบาท, ບົດບາດ).
const CURRENCY_WORD = /(?<!บท)บาท|(?<!ບົດ)ບາດ|กีบ|ກີບ|฿|\b(?:baht|kip|THB|LAK)\b/i;
// The one place the names are written, and the registration's choice of a wallet's currency
// (which names both, whatever the member holds).
const NAMING_KEYS = /^(common\.currency|register\.currencies)\./;

function texts(tree: unknown, prefix = ''): [string, string][] {
  if (typeof tree === 'string') return [[prefix, tree]];
  return Object.entries(tree as Record<string, unknown>).flatMap(([key, value]) =>
    texts(value, prefix ? `${prefix}.${key}` : key),
  );
}

describe('the strings files', () => {
  it('write no currency name into a text: it is interpolated ({{unit}}) from common.currency', () => {
    const baked = LOCALES.flatMap((locale) =>
      Object.entries(partsOf(locale)).flatMap(([file, tree]) =>
        texts(tree)
          .filter(([key, text]) => !NAMING_KEYS.test(key) && CURRENCY_WORD.test(text))
          .map(([key, text]) => `${locale}/${file}.json ${key}: ${text}`),
      ),
    );
    expect(baked).toEqual([]);
  });
});
