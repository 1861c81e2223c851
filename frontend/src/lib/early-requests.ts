/**
 * GET requests index.html starts before the app's JavaScript has arrived: the data the first
 * screen shows (app/first-screens.json, plugins/preload-first-screen.ts). On a slow phone network
 * the balance would otherwise be asked for only once the entry and its libraries had downloaded
 * and run, a whole round trip after them. The API client takes each response at most once, for
 * the same URL and token, and only while it is fresh; anything else is fetched as usual.
 */

/** The global the inline script fills (one entry per URL). */
export const EARLY_REQUESTS_GLOBAL = '__paoEarly';

/** Headers every API request carries (lib/api-client.ts); the inline script sends them too. */
export const CLIENT_HEADER = 'X-Pao-Client';
export const CLIENT_MARKER = 'wallet';

/** Older than this (ms after the page started), an early answer is fetched again instead. */
export const EARLY_MAX_AGE_MS = 10_000;

export type EarlyRequest = {
  /** The bearer token it was sent with, or null. */
  token: string | null;
  /** `performance.now()` when it was sent. */
  at: number;
  response: Promise<Response>;
};

type EarlyRequests = Record<string, EarlyRequest | undefined>;

function pending(): EarlyRequests | undefined {
  return (globalThis as Record<string, unknown>)[EARLY_REQUESTS_GLOBAL] as EarlyRequests | undefined;
}

/** The early response for `url` asked with `token`, if there is a fresh one; it is taken once. */
export function takeEarly(url: string, token: string | null): Promise<Response> | undefined {
  const requests = pending();
  const early = requests?.[url];
  if (!requests || !early) return undefined;
  delete requests[url];
  if (early.token !== token || performance.now() - early.at > EARLY_MAX_AGE_MS) return undefined;
  return early.response;
}

/**
 * Images a screen's first paint shows whose addresses come in one of its early answers (the front
 * game card's artwork in GET /api/wallet): index.html preloads them as soon as that answer
 * arrives, instead of when the screen has rendered them. The item is the first of `list` in the
 * answer to `data` whose fields equal `where`; each of its `fields` holds an image address.
 */
export type Artwork = {
  data: string;
  list: string;
  where: Record<string, string>;
  fields: string[];
};

/**
 * The image addresses `rule` picks out of `body`. The inline script of index.html runs this very
 * function (plugins/preload-first-screen.ts inlines its source), so it trusts nothing in `body`.
 */
export function artworkOf(rule: Artwork, body: unknown): string[] {
  const items: unknown = body && typeof body === 'object' ? (body as Record<string, unknown>)[rule.list] : null;
  if (!Array.isArray(items)) return [];
  const item = (items as unknown[]).find(
    (candidate): candidate is Record<string, unknown> =>
      Boolean(candidate) &&
      typeof candidate === 'object' &&
      Object.entries(rule.where).every(([key, value]) => (candidate as Record<string, unknown>)[key] === value),
  );
  if (!item) return [];
  // Same-site paths and http(s) addresses only: never a javascript: or data: URL.
  return rule.fields
    .map((field) => item[field])
    .filter((url): url is string => typeof url === 'string' && /^(\/(?!\/)|https?:\/\/)/.test(url));
}
