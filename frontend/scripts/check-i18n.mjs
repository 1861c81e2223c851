#!/usr/bin/env node
// i18n completeness over every strings file (locales/<lng>/*.json: the up-front translation.json
// and the feature parts): all languages have the same files, every key of th exists in la and en
// (and no extra ones), each string has the same {{placeholders}}, no top-level section is in two
// files, and every error-catalogue code (spec §8, incl. slip reasons) is translated — error texts
// in the up-front file, since any screen (login included) shows them.
import { readdirSync, readFileSync } from 'node:fs';

const root = new URL('../src/', import.meta.url);
const read = (path) => JSON.parse(readFileSync(new URL(path, root), 'utf8'));
const LOCALES = ['th', 'la', 'en'];
const SOURCE = 'th';
const CORE = 'translation';

function flatten(tree, prefix = '', out = new Map()) {
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object') flatten(value, path, out);
    else out.set(path, String(value));
  }
  return out;
}

const placeholders = (text) => [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort().join(',');
const fileNames = (locale) =>
  readdirSync(new URL(`locales/${locale}/`, root))
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .sort();

const problems = [];
function report() {
  if (!problems.length) return;
  console.error(`i18n check failed (${problems.length} problems):`);
  for (const p of problems) console.error(`  - ${p}`);
  process.exit(1);
}

const names = fileNames(SOURCE);
if (!names.includes(CORE)) problems.push(`${SOURCE}: no ${CORE}.json`);
for (const locale of LOCALES) {
  if (fileNames(locale).join() !== names.join()) {
    problems.push(`${locale}: files [${fileNames(locale)}], ${SOURCE} has [${names}]`);
  }
}
report(); // the key checks below need the same files everywhere

// bundles[locale][file] = flattened keys
const bundles = Object.fromEntries(
  LOCALES.map((l) => [l, Object.fromEntries(names.map((n) => [n, flatten(read(`locales/${l}/${n}.json`))]))]),
);

const owner = new Map();
for (const name of names) {
  for (const section of Object.keys(read(`locales/${SOURCE}/${name}.json`))) {
    if (owner.has(section)) problems.push(`section ${section} is in both ${owner.get(section)}.json and ${name}.json`);
    owner.set(section, name);
  }
}

let keyCount = 0;
for (const name of names) {
  const source = bundles[SOURCE][name];
  keyCount += source.size;
  for (const locale of LOCALES) {
    const bundle = bundles[locale][name];
    const where = `${locale}/${name}.json`;
    for (const [key, text] of bundle) {
      if (text.trim() === '') problems.push(`${where}: empty string for ${key}`);
      if (locale !== SOURCE && !source.has(key)) problems.push(`${where}: extra key ${key} (not in ${SOURCE})`);
    }
    if (locale === SOURCE) continue;
    for (const [key, text] of source) {
      if (!bundle.has(key)) {
        problems.push(`${where}: missing key ${key}`);
        continue;
      }
      const want = placeholders(text);
      const got = placeholders(bundle.get(key));
      if (want !== got) problems.push(`${where}: placeholders of ${key} are [${got}], ${SOURCE} has [${want}]`);
    }
  }
}

const codes = read('lib/error-codes.json');
const inAnyFile = (locale, key) => names.some((name) => bundles[locale][name].has(key));
for (const locale of LOCALES) {
  for (const code of codes.errorMsg) {
    if (!bundles[locale][CORE].has(`errorMsg.${code}`)) {
      problems.push(`${locale}: no translation for errorMsg.${code} in ${CORE}.json`);
    }
  }
  for (const code of codes.slipReason) {
    if (!inAnyFile(locale, `slipReason.${code}`)) problems.push(`${locale}: no translation for slipReason.${code}`);
  }
}

report();
console.log(
  `i18n check ok: ${keyCount} keys in ${names.length} files (${names.join(', ')}) in ${LOCALES.join(', ')}; ` +
    `${codes.errorMsg.length} error codes and ${codes.slipReason.length} slip reasons translated.`,
);
