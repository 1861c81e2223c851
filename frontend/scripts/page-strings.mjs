// The string parts each lazy page of src/app/router.tsx declares, read from its
// `lazyPage(() => import('./routes/x'), { strings: ['part', …], … });` statements (the up-front
// translation.json is implied). Shared by check-page-strings.mjs and check-bundle.mjs.
import { readFileSync } from 'node:fs';

const ROUTER = 'src/app/router.tsx';
// Up to the `);` that ends the statement's last line.
const PAGE = /lazyPage\(\s*\(\)\s*=>\s*import\('\.\/([^']+)'\)([\s\S]*?)\);$/gm;
const STRINGS = /\bstrings:\s*\[([^\]]*)\]/;

/** @returns {Map<string, string[]>} module path (from frontend/, e.g. 'src/app/routes/login.tsx') → parts */
export function pageStrings() {
  const source = readFileSync(new URL(`../${ROUTER}`, import.meta.url), 'utf8');
  const pages = new Map();
  for (const [, module, options] of source.matchAll(PAGE)) {
    const list = STRINGS.exec(options)?.[1] ?? '';
    pages.set(`src/app/${module}.tsx`, [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]));
  }
  // A declaration in another shape would escape the checks: refuse it.
  const calls = source.split('lazyPage(').length - 1;
  if (pages.size === 0 || calls !== pages.size) {
    throw new Error(`${ROUTER}: ${calls} lazyPage( calls but ${pages.size} read as lazyPage(() => import('./x'), {…});`);
  }
  return pages;
}
