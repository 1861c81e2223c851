/**
 * Build plugin: index.html preloads what the first screen needs, in the saved language:
 * - its up-front strings (locales/<lng>/translation.json) (not its web fonts: most phones have
 *   them installed, src/styles/fonts.css);
 * - the chunks and string parts of the screen at the URL being opened (src/app/first-screens.json),
 *   when it can open: member screens only with a stored session (the app has one stylesheet,
 *   linked by index.html itself);
 * - the data that screen shows: its GET requests are sent at once, and the API client takes their
 *   answers (src/lib/early-requests.ts); and the artwork its first paint shows, as soon as the
 *   answer naming it arrives.
 * Without it those are asked for only once the entry (and the libraries it imports) has been
 * downloaded and run: a whole extra round trip before the first paint on a slow phone network.
 * The artwork is asked for at low priority: over HTTP/1.1's six connections it would otherwise
 * hold back the scripts that paint the screen.
 */
import type { OutputBundle, OutputChunk } from 'rollup';
import type { Plugin } from 'vite';
import firstScreens from '../src/app/first-screens.json';
import { artworkOf, CLIENT_HEADER, CLIENT_MARKER, EARLY_REQUESTS_GLOBAL, type Artwork } from '../src/lib/early-requests';
import { CORE_STRINGS, LOCALES, type Locale } from '../src/lib/locales';
import { STORAGE_KEYS } from '../src/lib/storage';
import { VARIANT_META } from '../src/lib/variant';

type Language = { strings: string; parts: Record<string, string> };
type Screen = { js: string[]; strings: string[]; data: string[]; artwork: Artwork[]; login: boolean };
type Preloads = { languages: Record<string, Language>; screens: Record<string, Screen> };

const chunksOf = (bundle: OutputBundle): OutputChunk[] =>
  Object.values(bundle).filter((file): file is OutputChunk => file.type === 'chunk');

/** The chunk holding `module` (not always as its facade: Rollup may merge a screen with code
 * only it uses). */
function chunkFor(bundle: OutputBundle, module: string): OutputChunk {
  const chunk = chunksOf(bundle).find((file) => file.moduleIds.some((id) => id.endsWith(`/${module}`)));
  if (!chunk) throw new Error(`preload-first-screen: ${module} is not in a chunk of the build`);
  return chunk;
}

/** `chunk` and every chunk it imports statically, directly or not. */
function staticClosure(bundle: OutputBundle, chunk: OutputChunk, into = new Set<OutputChunk>()): Set<OutputChunk> {
  if (into.has(chunk)) return into;
  into.add(chunk);
  for (const name of chunk.imports) {
    const imported = bundle[name];
    if (imported?.type === 'chunk') staticClosure(bundle, imported, into);
  }
  return into;
}

function language(bundle: OutputBundle, base: string, locale: Locale): Language {
  const parts = [...new Set(Object.values(firstScreens).flatMap((screen) => screen.strings))];
  const partFile = (part: string) => base + chunkFor(bundle, `src/locales/${locale}/${part}.json`).fileName;
  return {
    strings: partFile(CORE_STRINGS),
    parts: Object.fromEntries(parts.map((part) => [part, partFile(part)])),
  };
}

function screens(bundle: OutputBundle, base: string): Record<string, Screen> {
  // What index.html loads already: the entry and its static imports, with their stylesheets.
  const entry = chunksOf(bundle).find((chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith('/index.html'));
  if (!entry) throw new Error('preload-first-screen: no entry chunk');
  const loaded = staticClosure(bundle, entry);
  return Object.fromEntries(
    Object.entries(firstScreens).map(([path, screen]) => {
      const chunks = new Set<OutputChunk>();
      for (const module of screen.modules) staticClosure(bundle, chunkFor(bundle, module), chunks);
      const needed = [...chunks].filter((chunk) => !loaded.has(chunk));
      return [
        path,
        {
          js: needed.map((chunk) => base + chunk.fileName),
          strings: screen.strings,
          data: screen.data,
          artwork: screen.artwork,
          login: screen.login,
        },
      ];
    }),
  );
}

/** The data island (scripts/check-bundle.mjs and the bench read it too) and the script using it. */
const PRELOADS_ID = 'pao-preloads';

// The saved language and session are known only in the browser: a tiny script adds the links.
// The language when none is saved: la in the Lao variant, whose document the server marks
// (src/lib/variant.ts), else th.
function scripts(preloads: Preloads): string {
  const key = (name: string) => JSON.stringify(name);
  // `<` escaped: the JSON sits inside an HTML <script> element.
  const data = JSON.stringify(preloads).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${PRELOADS_ID}">${data}</script>
    <script>(function () {
  var preloads = JSON.parse(document.getElementById(${key(PRELOADS_ID)}).textContent);
  function stored(key) {
    try { return localStorage.getItem(key) || sessionStorage.getItem(key); } catch (e) { return null; }
  }
  var variant = document.querySelector('meta[name=' + ${key(JSON.stringify(VARIANT_META))} + ']');
  var fallback = variant && variant.getAttribute('content') === 'la' ? 'la' : 'th';
  var language = preloads.languages[stored(${key(STORAGE_KEYS.locale)})] || preloads.languages[fallback];
  var screen = preloads.screens[location.pathname.replace(/(.)\\/+$/, '$1')];
  var token = stored(${key(STORAGE_KEYS.token)});
  if (screen && screen.login && !token) screen = null;
  if (screen) {
    // The screen's data first: the answers are small and the main content waits for them.
    var early = (window[${key(EARLY_REQUESTS_GLOBAL)}] = {});
    screen.data.forEach(function (url) {
      var headers = { ${key(CLIENT_HEADER)}: ${key(CLIENT_MARKER)} };
      if (token) headers.Authorization = 'Bearer ' + token;
      var response = fetch(url, { headers: headers });
      response.catch(function () {}); // reported by the API client when it takes the answer
      early[url] = { token: token, at: performance.now(), response: response };
    });
  }
  function add(rel, href, as) {
    var link = document.createElement('link');
    link.rel = rel;
    link.href = href;
    if (as) link.as = as;
    // Images are fetched without CORS where they are shown: a preload must match that to be used.
    if (as !== 'image') link.crossOrigin = '';
    if (as === 'image') link.fetchPriority = 'low';
    document.head.appendChild(link);
  }
  add('modulepreload', language.strings);
  if (!screen) return;
  screen.js.forEach(function (href) { add('modulepreload', href); });
  screen.strings.forEach(function (part) { add('modulepreload', language.parts[part]); });
  var artworkOf = ${artworkOf.toString()};
  screen.artwork.forEach(function (rule) {
    var sent = early[rule.data];
    if (!sent) return;
    // A copy of the answer: the API client reads the original when it takes it.
    sent.response
      .then(function (response) { return response.ok ? response.clone().json() : null; })
      .then(function (body) {
        artworkOf(rule, body).forEach(function (href) { add('preload', href, 'image'); });
      })
      .catch(function () {});
  });
})();</script>`;
}

export function preloadFirstScreen(): Plugin {
  let base = '/';
  return {
    name: 'pao-preload-first-screen',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle, path }) {
        // The back office (backoffice.html) has its own entry and preloads nothing of the player's.
        if (!bundle || path !== '/index.html') return html;
        const preloads: Preloads = {
          languages: Object.fromEntries(LOCALES.map((locale) => [locale, language(bundle, base, locale)])),
          screens: screens(bundle, base),
        };
        // After the entry's script and module preloads, whose downloads must not queue behind
        // these, and before the stylesheet, which an inline script would wait for.
        const stylesheet = /<link rel="stylesheet"/;
        if (!stylesheet.test(html)) throw new Error('preload-first-screen: no stylesheet <link> in index.html');
        return html.replace(stylesheet, (tag) => `${scripts(preloads)}\n    ${tag}`);
      },
    },
  };
}
