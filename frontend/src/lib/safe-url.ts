/**
 * The one check of URLs the app renders or navigates to when the server or a user supplied them
 * (links, images, videos, game launch links, the page to return to after login).
 *
 * The browser's own WHATWG parser (`new URL`) reads the value, never a string prefix: browsers
 * strip leading and trailing spaces and C0 controls, drop tabs and newlines anywhere, read `\` as
 * `/` in http(s) URLs and schemes in any case, so `/\evil.example`, ` //evil.example` and
 * `java\tscript:` mean `//evil.example` and `javascript:`.
 *
 * A value passes when it is a site URL (resolved against the site's origin it stays there, over
 * http(s)) where the policy allows those, or an absolute URL whose scheme the policy allows. A site
 * URL is resolved against two unrelated origins, one http and one https, exactly as the server
 * does (backend/src/pao/kit/urls.py): a value that names a host or switches scheme leaves one of
 * them, and the verdict never depends on where the app happens to be served. Both sides are tested
 * against the same vectors, contract/url-vectors.json.
 */

export type UrlPolicy = {
  /** Site URLs (`/media/a.png`, `?tab=1`) are allowed. */
  readonly site: boolean;
  /** Schemes allowed for absolute URLs, without the colon. */
  readonly schemes: readonly string[];
};

/** A place on this site only (e.g. where to go after login, what to fetch with the token). */
export const SITE: UrlPolicy = { site: true, schemes: [] };
/** An absolute http(s) URL only (a chat button that opens a new tab). */
export const WEB: UrlPolicy = { site: false, schemes: ['http', 'https'] };
/** A site URL or an absolute http(s) URL (operator links, images, videos, game launch links). */
export const SITE_OR_WEB: UrlPolicy = { site: true, schemes: ['http', 'https'] };
/** An absolute http(s), tel: or mailto: URL (links in operator HTML). */
export const LINK: UrlPolicy = { site: false, schemes: ['http', 'https', 'tel', 'mailto'] };

export const POLICIES = { site: SITE, web: WEB, siteOrWeb: SITE_OR_WEB, link: LINK } as const;

const BASES = ['http://site-a.invalid/', 'https://site-b.invalid/'] as const;

function parse(value: string, base?: string): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}

/** What a browser strips from both ends of a URL before parsing it: C0 controls and space. */
function trimC0AndSpace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) <= 0x20) start += 1;
  while (end > start && value.charCodeAt(end - 1) <= 0x20) end -= 1;
  return value.slice(start, end);
}

/**
 * `value` as the browser will read it (ends trimmed, tabs and newlines removed) when `policy`
 * allows it, else null.
 */
export function safeUrl(value: string | null | undefined, policy: UrlPolicy): string | null {
  if (typeof value !== 'string') return null;
  const cleaned = trimC0AndSpace(value).replace(/[\t\n\r]/g, '');
  const absolute = parse(cleaned);
  if (absolute) return policy.schemes.includes(absolute.protocol.slice(0, -1)) ? cleaned : null;
  if (!policy.site) return null;
  const stays = BASES.every((base) => parse(cleaned, base)?.origin === new URL(base).origin);
  return stays ? cleaned : null;
}

/**
 * The path, query and fragment a site URL points to (`/user/home?x=1#y`), for the router; null
 * when `value` is not a site URL, or when its path would read as a host once taken out of the URL
 * (`/.//evil.example` is the path `//evil.example`).
 */
export function sitePath(value: string | null | undefined): string | null {
  const checked = safeUrl(value, SITE);
  if (checked === null) return null;
  const url = new URL(checked, BASES[1]);
  return url.pathname.startsWith('//') ? null : url.pathname + url.search + url.hash;
}

/**
 * A CSS `url(…)` of an image that passes SITE_OR_WEB, quoted so that no character of it can end
 * the value; undefined when the image does not pass.
 */
export function cssUrl(value: string | null | undefined): string | undefined {
  const checked = safeUrl(value, SITE_OR_WEB);
  if (checked === null) return undefined;
  return `url("${checked.replace(/[\\"]/g, (c) => `\\${c}`)}")`;
}
