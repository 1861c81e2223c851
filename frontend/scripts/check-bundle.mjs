#!/usr/bin/env node
// Bundle budget: the gzip size of the JavaScript the /login route loads — the entry chunk and its
// static imports, plus what index.html preloads for /login (plugins/preload-first-screen.ts): the
// default language's up-front strings and the screen's chunks and string parts. Fonts, CSS and
// images are excluded.
// It also proves that the player's entry never loads the back office: every chunk holding
// back-office code is named bo-… by the build (vite.config.ts), and none of them may be reachable
// from index.html's entry through static or dynamic imports.
// Usage: node scripts/check-bundle.mjs [--no-build]
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

// The budget is issue 36's target: the check fails above it, so that /login cannot grow back.
export const TARGET_KIB = 100;
const dist = new URL('../dist/', import.meta.url);
const ROUTE = '/login';
// One build serves both variants (src/lib/variant.ts): /login loads th strings for a Thai
// operator, la for a Lao one. Both are held to the budget.
const VARIANT_LOCALES = ['th', 'la'];

if (!process.argv.includes('--no-build')) {
  execSync('npx vite build --logLevel warn', { stdio: 'inherit', cwd: new URL('..', import.meta.url) });
}

const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));
const html = readFileSync(new URL('index.html', dist), 'utf8');
const island = /<script type="application\/json" id="pao-preloads">(.*?)<\/script>/s.exec(html);
if (!island) throw new Error('bundle check: no preloads in index.html');
const preloads = JSON.parse(island[1]);
const files = new Set();

function collect(key) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`bundle check: ${key} is not in the build manifest`);
  if (files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) collect(dep);
}

const PLAYER_ENTRY = 'index.html';
const BACK_OFFICE_ENTRY = 'backoffice.html';
const isBackOffice = (file) => /^assets\/bo-/.test(file);
if (!manifest[BACK_OFFICE_ENTRY] || !isBackOffice(manifest[BACK_OFFICE_ENTRY].file)) {
  throw new Error(`bundle check: ${BACK_OFFICE_ENTRY} is not built as a bo- chunk`);
}
// Everything the player's document can ever load, its lazy screens included.
const reachable = new Set();
(function walk(key) {
  const chunk = manifest[key];
  if (!chunk || reachable.has(chunk.file)) return;
  reachable.add(chunk.file);
  for (const dep of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) walk(dep);
})(PLAYER_ENTRY);
const leaked = [...reachable].filter(isBackOffice);
if (leaked.length) {
  console.error(`bundle check: the player's entry reaches back-office chunks: ${leaked.join(', ')}`);
  process.exit(1);
}
console.log(`player entry: ${reachable.size} chunks reachable, none of the back office's`);

collect(PLAYER_ENTRY);
const screen = preloads.screens[ROUTE];
if (!screen) throw new Error(`bundle check: index.html preloads nothing for ${ROUTE}`);
for (const href of screen.js) files.add(href.replace(/^\//, ''));

const gzipped = (file) => gzipSync(readFileSync(new URL(file, dist)), { level: 9 }).length;
let worst = 0;
for (const locale of VARIANT_LOCALES) {
  const language = preloads.languages[locale];
  const strings = [language.strings, ...screen.strings.map((part) => language.parts[part])];
  const routeFiles = new Set([...files, ...strings.map((href) => href.replace(/^\//, ''))]);
  let total = 0;
  const rows = [];
  for (const file of [...routeFiles].filter((f) => f.endsWith('.js'))) {
    const size = gzipped(file);
    total += size;
    rows.push([file, size]);
  }
  rows.sort((a, b) => b[1] - a[1]);
  console.log(`${locale}:`);
  for (const [file, size] of rows) console.log(`  ${(size / 1024).toFixed(1).padStart(7)} KiB  ${file}`);
  const kib = total / 1024;
  console.log(`login route JS (gzip, ${locale}): ${kib.toFixed(1)} KiB (budget ${TARGET_KIB} KiB)`);
  worst = Math.max(worst, kib);
}
if (worst > TARGET_KIB) {
  console.error(`bundle budget exceeded: ${worst.toFixed(1)} KiB > ${TARGET_KIB} KiB`);
  process.exit(1);
}
