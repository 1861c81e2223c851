// The string parts each lazy screen of src/app/router.tsx declares, read from its
// `lazyScreen('name', { strings: ['part', …], … });` statements (the up-front translation.json is
// implied). Shared by check-page-strings.mjs and check-bundle.mjs.
import { readFileSync } from 'node:fs';

const ROUTER = 'src/app/router.tsx';
// A call up to the `);` that ends the statement's last line.
const SCREEN = /\blazyScreen\(\s*'([^']+)'([\s\S]*?)\);$/gm;
const STRINGS = /\bstrings:\s*\[([^\]]*)\]/;

/** @returns {Map<string, string[]>} module path (from frontend/, e.g. 'src/app/routes/login.tsx') → parts */
export function pageStrings() {
  const source = readFileSync(new URL(`../${ROUTER}`, import.meta.url), 'utf8');
  const pages = new Map();
  for (const [, name, options] of source.matchAll(SCREEN)) {
    const list = STRINGS.exec(options)?.[1] ?? '';
    pages.set(`src/app/routes/${name}.tsx`, [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]));
  }
  // A declaration in another shape would escape the checks: refuse it. (The definition of
  // lazyScreen itself is the one call-like text that is not a screen.)
  const calls = source.split(/\blazyScreen\(/).length - 2;
  if (pages.size === 0 || calls !== pages.size) {
    throw new Error(`${ROUTER}: ${calls} lazyScreen( calls but ${pages.size} read as lazyScreen('name', {…});`);
  }
  return pages;
}
