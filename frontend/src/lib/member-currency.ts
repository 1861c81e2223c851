/**
 * The one source of the currency the member app shows money in: the member's wallet currency
 * once `GET /api/wallet` said it (kept with the session, so a reload on any page knows it), the
 * variant's usual currency before (kip in the Lao variant, baht otherwise). Every amount the
 * member app formats goes through here, so a kip wallet never shows baht decimals.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { useCurrencyUnit } from './currency-unit';
import { env } from './env';
import { formatMoney, type Currency } from './money';
import { onSessionCleared, readLocal, removeLocal, STORAGE_KEYS, writeLocal } from './storage';

const CURRENCIES: readonly Currency[] = ['THB', 'LAK'];

/** The variant's usual currency, for a member whose wallet has not been seen yet; the back
 * office's amounts (settings, bonuses, the wheel) are in it too. */
export const variantCurrency = (lao: boolean = env.lao): Currency => (lao ? 'LAK' : 'THB');

const asCurrency = (value: unknown): Currency | null =>
  CURRENCIES.includes(value as Currency) ? (value as Currency) : null;

// Memory first (storage may refuse writes: private mode), then what an earlier page load kept.
let known: Currency | null | undefined;
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

/** The currency to show the member's money in now. */
export function memberCurrency(lao: boolean = env.lao): Currency {
  if (known === undefined) known = asCurrency(readLocal(STORAGE_KEYS.currency));
  return known ?? variantCurrency(lao);
}

/** Records the wallet's currency (the wallet answer calls this); an unknown code is ignored. */
export function rememberMemberCurrency(value: string | null | undefined): void {
  const currency = asCurrency(value);
  if (currency === null || currency === known) return;
  known = currency;
  writeLocal(STORAGE_KEYS.currency, currency);
  changed();
}

/** Forgets it (the session ended): the next member starts from the variant's currency. */
export function forgetMemberCurrency(): void {
  removeLocal(STORAGE_KEYS.currency);
  if (known === null) return;
  known = null;
  changed();
}

onSessionCleared(forgetMemberCurrency);

/** `amount` (major units) in the member's currency: "1,234.50" baht, "1,235" kip. */
export const formatMemberMoney = (amount: number): string => formatMoney(amount, memberCurrency());

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => memberCurrency();

/** The member's currency, re-rendering when the wallet tells it. */
export function useMemberCurrency(): Currency {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** A formatter of amounts in the member's currency, for components. */
export function useMoney(): (amount: number) => string {
  const currency = useMemberCurrency();
  return useCallback((amount: number) => formatMoney(amount, currency), [currency]);
}

/** The name of the member's currency in the UI's language, for the texts that say it
 * ({{unit}}: "Amount (ກີບ)"), beside the amounts `useMoney` formats. */
export function useMoneyUnit(): string {
  return useCurrencyUnit(useMemberCurrency());
}

/** The name of the variant's currency in the UI's language: the unit of the back office's
 * amount fields ("Maximum (ກີບ)" for a Lao operator). */
export function useVariantUnit(): string {
  return useCurrencyUnit(variantCurrency());
}
