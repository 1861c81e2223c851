/**
 * The bonus editor's form state and its conversions: amounts typed in baht (major units, as the
 * API takes them), texts per language, the validity window as `datetime-local` values in the
 * browser's time zone (sent as ISO instants).
 */
import type { components } from '@/api/schema.gen';
import { variantCurrency } from '@/lib/member-currency';

export type Bonus = components['schemas']['BonusAdminOut'];
export type Kind = Bonus['kind'];
export type BonusType = Bonus['type'];
export type CreateBody = components['schemas']['BonusCreateIn'];
export const LANGS = ['th', 'la', 'en'] as const;
export type Lang = (typeof LANGS)[number];
export type Texts = Record<Lang, string>;
export type BannerDraft = { image: string; html: Texts; title: Texts };

export type Draft = {
  code: string;
  kind: Kind;
  /** The currency its amounts are in: offered only to members whose wallet is in it. */
  currency: Bonus['currency'];
  type: BonusType;
  name: Texts;
  description: Texts;
  mode: 'percent' | 'fixed';
  percent: string;
  fixedAmount: string;
  maxAmount: string;
  minDeposit: string;
  maxReceived: string;
  turnoverMultiplier: string;
  percentFail: string;
  totalLimit: string;
  validFrom: string;
  validUntil: string;
  banners: BannerDraft[];
  /** The players' order of bonus cards, as typed (promotion codes are never listed: kept as is). */
  sortOrder: string;
};

/** The sort order's bounds, those the server checks (catalogue_admin.COUNT_MAX, what its INTEGER
 * column holds): beyond them it answers BONUS_SORT_INVALID. */
export const SORT_ORDER_MAX = 2_147_483_647;

/** The sort order typed as a whole number within the bounds, or null. */
export function sortOrderOf(text: string): number | null {
  const value = text.trim() === '' ? Number.NaN : Number(text.trim());
  return Number.isInteger(value) && Math.abs(value) <= SORT_ORDER_MAX ? value : null;
}

const texts = (value?: Record<string, string>): Texts => ({ th: value?.th ?? '', la: value?.la ?? '', en: value?.en ?? '' });

/** An ISO instant as a `datetime-local` value in the browser's time zone. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A `datetime-local` value as an ISO instant, or null when empty. */
export function fromLocalInput(local: string): string | null {
  if (!local) return null;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

export function emptyDraft(kind: Kind, currency: Bonus['currency'] = variantCurrency()): Draft {
  return {
    code: '',
    kind,
    currency,
    type: 'limit',
    name: texts(),
    description: texts(),
    mode: kind === 'promotion' ? 'fixed' : 'percent',
    percent: '0',
    fixedAmount: '0',
    maxAmount: '',
    minDeposit: '0',
    maxReceived: '1',
    turnoverMultiplier: '1',
    percentFail: '10',
    totalLimit: '',
    validFrom: '',
    validUntil: '',
    banners: [],
    sortOrder: '0',
  };
}

export function draftOf(bonus: Bonus): Draft {
  return {
    code: bonus.code,
    kind: bonus.kind,
    currency: bonus.currency,
    type: bonus.type,
    name: texts(bonus.name),
    description: texts(bonus.description),
    mode: bonus.percent > 0 ? 'percent' : 'fixed',
    percent: String(bonus.percent),
    fixedAmount: String(bonus.fixedAmount),
    maxAmount: String(bonus.maxAmount),
    minDeposit: String(bonus.minDeposit),
    maxReceived: String(bonus.maxReceived),
    turnoverMultiplier: String(bonus.turnoverMultiplier),
    percentFail: String(bonus.percentFail),
    totalLimit: bonus.totalLimit == null ? '' : String(bonus.totalLimit),
    validFrom: toLocalInput(bonus.validFrom),
    validUntil: toLocalInput(bonus.validUntil),
    banners: bonus.banners.map((b) => ({ image: b.image, html: texts(b.html), title: texts(b.title) })),
    sortOrder: String(bonus.sortOrder),
  };
}

// What the person typed, as the number the API reads; anything unreadable goes as NaN → null,
// which the server refuses with the field's code (shown beside the field).
const num = (value: string): number => (value.trim() === '' ? Number.NaN : Number(value.trim()));
const orNull = (value: number): number => (Number.isFinite(value) ? value : (null as unknown as number));

const only = (value: Texts): Record<string, string> => Object.fromEntries(Object.entries(value).filter(([, text]) => text.trim() !== ''));

/** The body of a create (the fields an edit sends too, plus code and kind). */
export function bodyOf(draft: Draft): CreateBody {
  const percent = draft.mode === 'percent' ? orNull(num(draft.percent)) : 0;
  const fixedAmount = draft.mode === 'fixed' ? orNull(num(draft.fixedAmount)) : 0;
  return {
    code: draft.code.trim().toUpperCase(),
    kind: draft.kind,
    currency: draft.currency,
    type: draft.type,
    name: only(draft.name),
    description: only(draft.description),
    percent,
    fixedAmount,
    // A fixed amount is its own maximum: the editor asks for a maximum only with a percent.
    maxAmount: draft.mode === 'fixed' ? fixedAmount : orNull(num(draft.maxAmount)),
    minDeposit: orNull(num(draft.minDeposit || '0')),
    maxReceived: orNull(num(draft.maxReceived)),
    turnoverMultiplier: orNull(num(draft.turnoverMultiplier)),
    percentFail: orNull(num(draft.percentFail)),
    totalLimit: draft.kind === 'promotion' && draft.totalLimit.trim() !== '' ? orNull(num(draft.totalLimit)) : null,
    validFrom: fromLocalInput(draft.validFrom),
    validUntil: fromLocalInput(draft.validUntil),
    banners: draft.banners.map((b) => ({ image: b.image, html: only(b.html), title: only(b.title) })),
    sortOrder: sortOrderOf(draft.sortOrder) ?? orNull(num(draft.sortOrder)),
  };
}
