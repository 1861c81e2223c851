/**
 * Build plugin: index.html preloads what every first screen needs in the saved language: its
 * up-front strings (locales/<lng>/translation.json) and the web fonts its text is set in (the 400
 * and 700 weights of the subsets it uses). Without it the strings are asked for only once the
 * entry has run, and the fonts at the first layout, after the JavaScript has rendered: the page
 * is then laid out with a fallback font and again when each font arrives, which costs main-thread
 * time and can shift the page.
 */
import type { OutputBundle } from 'rollup';
import type { Plugin } from 'vite';
import { CORE_STRINGS, LOCALES, type Locale } from '../src/lib/locales';
import { STORAGE_KEYS } from '../src/lib/storage';

// Font files (fontsource names) per language: th and en text is set in Noto Sans Thai (en needs
// only its Latin subset), Lao (<html lang="lo">) in Noto Sans Lao; digits and names are Latin.
const FONTS: Record<Locale, string[]> = {
  th: ['noto-sans-thai-thai', 'noto-sans-thai-latin'],
  la: ['noto-sans-lao-lao', 'noto-sans-lao-latin'],
  en: ['noto-sans-thai-latin'],
};
const WEIGHTS = [400, 700];

type Preloads = { strings: string; fonts: string[] };

function preloads(bundle: OutputBundle, base: string, locale: Locale): Preloads {
  const files = Object.values(bundle);
  const stringsModule = `/src/locales/${locale}/${CORE_STRINGS}.json`;
  const strings = files.find((file) => file.type === 'chunk' && file.facadeModuleId?.endsWith(stringsModule));
  if (!strings) throw new Error(`preload-language: ${stringsModule} is not a chunk of the build`);
  const fonts = FONTS[locale].flatMap((subset) =>
    WEIGHTS.map((weight) => {
      const name = `${subset}-${weight}-normal.woff2`;
      const font = files.find((file) => file.type === 'asset' && file.names.includes(name));
      if (!font) throw new Error(`preload-language: ${name} is not in the build`);
      return base + font.fileName;
    }),
  );
  return { strings: base + strings.fileName, fonts };
}

// The saved language is known only in the browser: a tiny script adds the links.
function script(all: Record<string, Preloads>, defaultLocale: Locale): string {
  return `<script>(function () {
  var preloads = ${JSON.stringify(all)};
  var locale;
  try { locale = localStorage.getItem(${JSON.stringify(STORAGE_KEYS.locale)}); } catch (e) {}
  var chosen = preloads[locale] || preloads[${JSON.stringify(defaultLocale)}];
  function add(rel, href, font) {
    var link = document.createElement('link');
    link.rel = rel;
    link.href = href;
    link.crossOrigin = '';
    if (font) { link.as = 'font'; link.type = 'font/woff2'; }
    document.head.appendChild(link);
  }
  add('modulepreload', chosen.strings, false);
  chosen.fonts.forEach(function (href) { add('preload', href, true); });
})();</script>`;
}

/** `defaultLocale` is the app's language when none is saved (la in the Lao build, else th). */
export function preloadLanguage(defaultLocale: Locale): Plugin {
  let base = '/';
  return {
    name: 'pao-preload-language',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        const all = Object.fromEntries(LOCALES.map((locale) => [locale, preloads(bundle, base, locale)]));
        // After the entry's script and module preloads, whose downloads must not queue behind
        // these, and before the stylesheet, which an inline script would wait for.
        const stylesheet = /<link rel="stylesheet"/;
        if (!stylesheet.test(html)) throw new Error('preload-language: no stylesheet <link> in index.html');
        return html.replace(stylesheet, (tag) => `${script(all, defaultLocale)}\n    ${tag}`);
      },
    },
  };
}
