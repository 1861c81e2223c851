/**
 * A currency's name in the UI's language (บาท / ບາດ / baht, กีบ / ກີບ / kip), for the texts that
 * say one: "Amount ({{unit}})", "At least {{min}} {{unit}}". The names live in one place,
 * `common.currency` of each language's up-front strings; no other text writes a currency's name
 * (currency-unit.test.ts checks every strings file), so a kip amount never reads as baht.
 * The member app passes its member's currency (`useMoneyUnit`, lib/member-currency.ts), the back
 * office the operator's (`variantCurrency()`).
 */
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Currency } from './money';

/** The name of `currency` in the language `t` speaks. */
export const currencyUnit = (t: TFunction, currency: Currency): string => t(`common.currency.${currency}`);

/** The name of `currency` in the UI's language, following a language change. */
export function useCurrencyUnit(currency: Currency): string {
  const { t } = useTranslation();
  return currencyUnit(t, currency);
}
