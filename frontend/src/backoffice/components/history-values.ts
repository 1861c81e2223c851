/**
 * How the settings history reads to a manager: a change by the kind of its setting (the group's
 * `fields` say which), not its stored JSON.
 *
 * * A text in three languages is a line per language whose text changed, HTML read as plain text
 *   and cut to an excerpt around the first difference (a change late in a long text stays
 *   visible); a change of markup alone is marked as such.
 * * A list (conditions, agreements, banners) names the items added, removed or changed.
 * * A banner is summarised: its image's file name (and a thumbnail), its title per language,
 *   and the languages whose HTML changed, not the HTML itself.
 * * Money in the operator's currency (baht, or kip in the Lao variant) and rates in percent,
 *   as the editors show them; numbers, flags and plain strings as they are.
 */
import type { components } from '@/api/schema.gen';
import { variantCurrency } from '@/lib/member-currency';
import { type Currency, formatMoney } from '@/lib/money';
import { SITE_OR_WEB, safeUrl } from '@/lib/safe-url';

export type Kind = components['schemas']['FieldOut']['kind'];
export const LANGS = ['th', 'la', 'en'] as const;
export type Lang = (typeof LANGS)[number];
/** A value as one line of text; null for none (shown as a dash). */
export type Shown = string | null;
export type Image = { name: string; src: string | null };
export type ItemChange = 'added' | 'removed' | 'changed';

export type Part =
  /** A whole value: a number, flag, amount, rate, choice, line of text. */
  | { type: 'value'; before: Shown; after: Shown }
  /** One language of a text in three languages; `markup` when only its HTML tags changed. */
  | { type: 'lang'; lang: Lang; before: Shown; after: Shown; markup: boolean }
  /** A banner's image. */
  | { type: 'image'; before: Image | null; after: Image | null }
  /** The languages in which a banner's HTML changed. */
  | { type: 'html'; langs: Lang[] }
  /** An item of a list (`n` from 1) and what of it changed. */
  | { type: 'item'; n: number; change: ItemChange; parts: Part[] };

/** Longest excerpt of a text shown, in characters. */
export const SHOWN_MAX = 120;
/** Characters kept before the first difference when an excerpt starts inside a text. */
const LEAD = 24;

type Localized = Partial<Record<Lang, string>>;
type Banner = { image: string; html: Localized; title: Localized };

/** The parts of one history change of a setting of `kind` (unknown: judged by the values). */
export function describeChange(kind: Kind | undefined, before: unknown, after: unknown, choice: (value: string) => string = (value) => value): Part[] {
  if (kind === 'banners' || (!kind && (isBannerList(before) || isBannerList(after)))) {
    return listParts(before, after, bannerParts);
  }
  if (kind === 'htmlList' || kind === 'textList' || (!kind && (isLocalizedList(before) || isLocalizedList(after)))) {
    const html = kind !== 'textList';
    return listParts(before, after, (b, a) => langParts(b, a, html));
  }
  if (kind === 'html' || (!kind && (isLocalized(before) || isLocalized(after)))) {
    const parts = langParts(before, after, kind === 'html');
    if (parts.length > 0) return parts;
  }
  return [{ type: 'value', before: scalar(kind, before, choice), after: scalar(kind, after, choice) }];
}

const SYMBOL: Record<Currency, string> = { THB: '฿', LAK: '₭' };

/** An amount as the back office writes it: grouped, kip without decimals, with its symbol. */
export function moneyText(amount: number, currency: Currency): string {
  return `${formatMoney(amount, currency)} ${SYMBOL[currency]}`;
}

/** Each currency's amount of a per-currency value (`{THB: 100, LAK: null}`), "THB —" where
 * unset; a code that is no currency of the site (an old record's unknown one, "XXX") is the
 * amount alone, without a unit. */
export function amountsText(amounts: Record<string, unknown>): string {
  return Object.entries(amounts)
    .map(([code, amount]) => {
      if (typeof amount !== 'number') return `${code} —`;
      return code in SYMBOL ? moneyText(amount, code as Currency) : formatMoney(amount, 'THB');
    })
    .join(' · ');
}

/** A single value as its editor shows it; money in `currency`, the operator's by default. */
export function scalar(kind: Kind | undefined, value: unknown, choice: (value: string) => string = (v) => v, currency: Currency = variantCurrency()): Shown {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return null;
  if (typeof value === 'number' && kind === 'money') return moneyText(value, currency);
  // Money settings per currency (ADR 0020): each currency's amount, "—" where unset.
  if (kind === 'money' && value && typeof value === 'object' && !Array.isArray(value)) {
    return amountsText(Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([code]) => code in SYMBOL)));
  }
  // Rates are basis points on the wire, percentages in the editor (250 = 2.5 %).
  if (typeof value === 'number' && kind === 'percentBp') return `${value / 100} %`;
  if (typeof value === 'string' && kind === 'choice') return choice(value);
  if (typeof value === 'string') return cut(value, 0);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return cut(JSON.stringify(value), 0);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
// Tags that end a line or a block: read as a space, so "<p>a</p><p>b</p>" is "a b", not "ab".
const BLOCK = /<\/?(?:address|article|aside|blockquote|br|dd|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|li|ol|p|pre|section|table|tbody|td|tfoot|th|thead|tr|ul)\b[^>]*>/gi;

/** HTML as the text a reader sees, on one line: tags dropped, entities read, spaces folded. */
export function plainText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(BLOCK, ' ')
    .replace(/<\/?[a-z][^>]*>/gi, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      const code = name[0] !== '#' ? null : name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      if (code === null) return ENTITIES[name.toLowerCase()] ?? entity;
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** The file name of an image address (`/api/images/ab12.png` → `ab12.png`). */
export function imageName(address: string): string {
  const path = address.split(/[?#]/)[0] ?? '';
  const last = path.split('/').pop() ?? '';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // A stray % in the name: show it as written.
  }
  return name || address;
}

/** Up to SHOWN_MAX characters of `text` from `start` (whole characters), with … where cut. */
function cut(text: string, start: number): string {
  const chars = Array.from(text);
  const from = Math.min(start, chars.length);
  const shown = chars.slice(from, from + SHOWN_MAX).join('');
  return `${from > 0 ? '…' : ''}${shown}${from + SHOWN_MAX < chars.length ? '…' : ''}`;
}

/** Both texts cut from the same place: a little before their first difference. */
function excerpts(before: string, after: string): [Shown, Shown] {
  const b = Array.from(before);
  const a = Array.from(after);
  let same = 0;
  while (same < b.length && same < a.length && b[same] === a[same]) same += 1;
  const start = same > SHOWN_MAX - LEAD ? same - LEAD : 0;
  return [before ? cut(before, start) : null, after ? cut(after, start) : null];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isLocalized = (value: unknown): boolean => isRecord(value) && Object.keys(value).every((key) => (LANGS as readonly string[]).includes(key));
const isLocalizedList = (value: unknown): boolean => Array.isArray(value) && value.length > 0 && value.every(isLocalized);
const isBannerList = (value: unknown): boolean => Array.isArray(value) && value.length > 0 && value.every((item) => isRecord(item) && 'image' in item);

/** The language a one-language string is written in (by its letters, as the server files it). */
function scriptOf(text: string): Lang {
  let lao = 0;
  let thai = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0x0e80 && code <= 0x0eff) lao += 1;
    else if (code >= 0x0e00 && code <= 0x0e7f) thai += 1;
  }
  if (lao || thai) return lao > thai ? 'la' : 'th';
  return 'en';
}

/** A text per language from what is stored: {th, la, en}, or a plain string kept from before
 * texts were per language (filed under the language it is written in). */
function asLocalized(value: unknown): Localized {
  if (typeof value === 'string') return value ? { [scriptOf(value)]: value } : {};
  if (!isRecord(value)) return {};
  return Object.fromEntries(LANGS.flatMap((lang) => (typeof value[lang] === 'string' ? [[lang, value[lang]]] : [])));
}

function langParts(before: unknown, after: unknown, html: boolean): Part[] {
  const b = asLocalized(before);
  const a = asLocalized(after);
  return LANGS.flatMap((lang): Part[] => {
    const rawBefore = b[lang] ?? '';
    const rawAfter = a[lang] ?? '';
    if (rawBefore === rawAfter) return [];
    const textBefore = html ? plainText(rawBefore) : rawBefore;
    const textAfter = html ? plainText(rawAfter) : rawAfter;
    const [shownBefore, shownAfter] = excerpts(textBefore, textAfter);
    return [{ type: 'lang', lang, before: shownBefore, after: shownAfter, markup: textBefore === textAfter }];
  });
}

function asBanner(value: unknown): Banner | null {
  if (!isRecord(value)) return null;
  return { image: typeof value.image === 'string' ? value.image : '', html: asLocalized(value.html), title: asLocalized(value.title) };
}

function image(banner: Banner | null): Image | null {
  if (!banner?.image) return null;
  return { name: imageName(banner.image), src: safeUrl(banner.image, SITE_OR_WEB) };
}

function bannerParts(before: unknown, after: unknown): Part[] {
  const b = asBanner(before);
  const a = asBanner(after);
  const parts: Part[] = [];
  if (b?.image !== a?.image) parts.push({ type: 'image', before: image(b), after: image(a) });
  parts.push(...langParts(b?.title, a?.title, false));
  const htmlChanged = LANGS.filter((lang) => (b?.html[lang] ?? '') !== (a?.html[lang] ?? ''));
  if (htmlChanged.length > 0) parts.push({ type: 'html', langs: htmlChanged });
  return parts;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The items of two lists that differ, by position. */
function listParts(before: unknown, after: unknown, parts: (before: unknown, after: unknown) => Part[]): Part[] {
  const b = Array.isArray(before) ? before : [];
  const a = Array.isArray(after) ? after : [];
  const items: Part[] = [];
  for (let i = 0; i < Math.max(b.length, a.length); i += 1) {
    if (i < b.length && i < a.length && same(b[i], a[i])) continue;
    const change: ItemChange = i >= b.length ? 'added' : i >= a.length ? 'removed' : 'changed';
    items.push({ type: 'item', n: i + 1, change, parts: parts(b[i], a[i]) });
  }
  // Nothing differs item by item (a value that was not a list): the values as they are.
  return items.length > 0 ? items : [{ type: 'value', before: scalar(undefined, before), after: scalar(undefined, after) }];
}
