/**
 * Build plugin: index.html preloads what the first screen needs, in the saved language:
 * - its up-front strings (locales/<lng>/translation.json) and the web fonts its text is set in
 *   (the 400 and 700 weights of the subsets it uses);
 * - the chunks, stylesheets and string parts of the screen at the URL being opened
 *   (src/app/first-screens.json), when it can open: member screens only with a stored session;
 * - the data that screen shows: its GET requests are sent at once, and the API client takes their
 *   answers (src/lib/early-requests.ts).
 * Without it those are asked for only once the entry (and the libraries it imports) has been
 * downloaded and run: a whole extra round trip before the first paint on a slow phone network.
 */
import type { OutputBundle, OutputChunk } from 'rollup';
import type { Plugin } from 'vite';
import firstScreens from '../src/app/first-screens.json';
import { CLIENT_HEADER, CLIENT_MARKER, EARLY_REQUESTS_GLOBAL } from '../src/lib/early-requests';
import { CORE_STRINGS, LOCALES, type Locale } from '../src/lib/locales';
import { STORAGE_KEYS } from '../src/lib/storage';

// Font files (fontsource names) per language: Thai and Lao text is set in Noto Sans Thai and Lao,
// Latin text (all of English, digits and names elsewhere) in the system font (src/main.tsx).
const FONTS: Record<Locale, string[]> = {
  th: ['noto-sans-thai-thai'],
  la: ['noto-sans-lao-lao'],
  en: [],
};
const WEIGHTS = [400, 700];

type Language = { strings: string; fonts: string[]; parts: Record<string, string> };
type Screen = { js: string[]; css: string[]; strings: string[]; data: string[]; login: boolean };
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
  const files = Object.values(bundle);
  const fonts = FONTS[locale].flatMap((subset) =>
    WEIGHTS.map((weight) => {
      const name = `${subset}-${weight}-normal.woff2`;
      const font = files.find((file) => file.type === 'asset' && file.names.includes(name));
      if (!font) throw new Error(`preload-first-screen: ${name} is not in the build`);
      return base + font.fileName;
    }),
  );
  const parts = [...new Set(Object.values(firstScreens).flatMap((screen) => screen.strings))];
  const partFile = (part: string) => base + chunkFor(bundle, `src/locales/${locale}/${part}.json`).fileName;
  return {
    strings: partFile(CORE_STRINGS),
    fonts,
    parts: Object.fromEntries(parts.map((part) => [part, partFile(part)])),
  };
}

function screens(bundle: OutputBundle, base: string): Record<string, Screen> {
  // What index.html loads already: the entry and its static imports, with their stylesheets.
  const entry = chunksOf(bundle).find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('preload-first-screen: no entry chunk');
  const loaded = staticClosure(bundle, entry);
  const loadedCss = new Set([...loaded].flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])]));
  return Object.fromEntries(
    Object.entries(firstScreens).map(([path, screen]) => {
      const chunks = new Set<OutputChunk>();
      for (const module of screen.modules) staticClosure(bundle, chunkFor(bundle, module), chunks);
      const needed = [...chunks].filter((chunk) => !loaded.has(chunk));
      const css = needed.flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])]);
      return [
        path,
        {
          js: needed.map((chunk) => base + chunk.fileName),
          css: [...new Set(css)].filter((file) => !loadedCss.has(file)).map((file) => base + file),
          strings: screen.strings,
          data: screen.data,
          login: screen.login,
        },
      ];
    }),
  );
}

/** The data island (scripts/check-bundle.mjs and the bench read it too) and the script using it. */
const PRELOADS_ID = 'pao-preloads';

// The saved language and session are known only in the browser: a tiny script adds the links.
function scripts(preloads: Preloads, defaultLocale: Locale): string {
  const key = (name: string) => JSON.stringify(name);
  // `<` escaped: the JSON sits inside an HTML <script> element.
  const data = JSON.stringify(preloads).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${PRELOADS_ID}">${data}</script>
    <script>(function () {
  var preloads = JSON.parse(document.getElementById(${key(PRELOADS_ID)}).textContent);
  function stored(key) {
    try { return localStorage.getItem(key) || sessionStorage.getItem(key); } catch (e) { return null; }
  }
  var language = preloads.languages[stored(${key(STORAGE_KEYS.locale)})] || preloads.languages[${key(defaultLocale)}];
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
    link.crossOrigin = '';
    if (as === 'font') link.type = 'font/woff2';
    if (as) link.as = as;
    document.head.appendChild(link);
  }
  add('modulepreload', language.strings);
  language.fonts.forEach(function (href) { add('preload', href, 'font'); });
  if (!screen) return;
  screen.js.forEach(function (href) { add('modulepreload', href); });
  screen.strings.forEach(function (part) { add('modulepreload', language.parts[part]); });
  screen.css.forEach(function (href) { add('preload', href, 'style'); });
})();</script>`;
}

/** `defaultLocale` is the app's language when none is saved (la in the Lao build, else th). */
export function preloadFirstScreen(defaultLocale: Locale): Plugin {
  let base = '/';
  return {
    name: 'pao-preload-first-screen',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        const preloads: Preloads = {
          languages: Object.fromEntries(LOCALES.map((locale) => [locale, language(bundle, base, locale)])),
          screens: screens(bundle, base),
        };
        // After the entry's script and module preloads, whose downloads must not queue behind
        // these, and before the stylesheet, which an inline script would wait for.
        const stylesheet = /<link rel="stylesheet"/;
        if (!stylesheet.test(html)) throw new Error('preload-first-screen: no stylesheet <link> in index.html');
        return html.replace(stylesheet, (tag) => `${scripts(preloads, defaultLocale)}\n    ${tag}`);
      },
    },
  };
}
