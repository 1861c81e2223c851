#!/usr/bin/env node
// Bundle budget: the gzip size of the JavaScript the /login route loads — the entry chunk and its
// static imports, plus the lazy chunks /login pulls in (public shell, login screen, the default
// language's up-front strings and any string part those pages declare) with their static imports.
// Fonts, CSS and images are excluded.
// Usage: node scripts/check-bundle.mjs [--no-build]
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { pageStrings } from './page-strings.mjs';

export const BUDGET_KIB = 120;
export const TARGET_KIB = 100;
const dist = new URL('../dist/', import.meta.url);

// Source modules whose chunks /login loads, besides the entry.
const LOGIN_PAGES = ['src/app/routes/public-shell.tsx', 'src/app/routes/login.tsx'];
const locale = process.env.VITE_LAO === '1' ? 'la' : 'th';
const declared = pageStrings();
const partsOf = (page) => {
  if (!declared.has(page)) throw new Error(`bundle check: ${page} is not a lazyPage of the router`);
  return declared.get(page);
};
const LOGIN_MODULES = [
  ...LOGIN_PAGES,
  ...['translation', ...LOGIN_PAGES.flatMap(partsOf)].map((part) => `src/locales/${locale}/${part}.json`),
];

if (!process.argv.includes('--no-build')) {
  execSync('npx vite build --logLevel warn', { stdio: 'inherit', cwd: new URL('..', import.meta.url) });
}

const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));
const files = new Set();

function collect(key) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`bundle check: ${key} is not in the build manifest`);
  if (files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) collect(dep);
}

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
collect(entry);
for (const module of LOGIN_MODULES) collect(module);

let total = 0;
const rows = [];
for (const file of [...files].filter((f) => f.endsWith('.js'))) {
  const size = gzipSync(readFileSync(new URL(file, dist)), { level: 9 }).length;
  total += size;
  rows.push([file, size]);
}
rows.sort((a, b) => b[1] - a[1]);
for (const [file, size] of rows) console.log(`  ${(size / 1024).toFixed(1).padStart(7)} KiB  ${file}`);
const kib = total / 1024;
console.log(`login route JS (gzip): ${kib.toFixed(1)} KiB (target ${TARGET_KIB} KiB, budget ${BUDGET_KIB} KiB)`);
if (kib > BUDGET_KIB) {
  console.error(`bundle budget exceeded: ${kib.toFixed(1)} KiB > ${BUDGET_KIB} KiB`);
  process.exit(1);
}
