#!/usr/bin/env node
// i18n completeness: every key of th exists in la and en (and no extra ones), each string has the
// same {{placeholders}}, and every error-catalogue code (spec §8, incl. slip reasons) is translated.
import { readFileSync } from 'node:fs';

const root = new URL('../src/', import.meta.url);
const read = (path) => JSON.parse(readFileSync(new URL(path, root), 'utf8'));
const LOCALES = ['th', 'la', 'en'];
const SOURCE = 'th';

function flatten(tree, prefix = '', out = new Map()) {
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object') flatten(value, path, out);
    else out.set(path, String(value));
  }
  return out;
}

const placeholders = (text) => [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort().join(',');

const bundles = Object.fromEntries(LOCALES.map((l) => [l, flatten(read(`locales/${l}/translation.json`))]));
const problems = [];
const source = bundles[SOURCE];

for (const locale of LOCALES) {
  const bundle = bundles[locale];
  for (const [key, text] of bundle) {
    if (text.trim() === '') problems.push(`${locale}: empty string for ${key}`);
    if (locale !== SOURCE && !source.has(key)) problems.push(`${locale}: extra key ${key} (not in ${SOURCE})`);
  }
  if (locale === SOURCE) continue;
  for (const [key, text] of source) {
    if (!bundle.has(key)) {
      problems.push(`${locale}: missing key ${key}`);
      continue;
    }
    const want = placeholders(text);
    const got = placeholders(bundle.get(key));
    if (want !== got) problems.push(`${locale}: placeholders of ${key} are [${got}], ${SOURCE} has [${want}]`);
  }
}

const codes = read('lib/error-codes.json');
for (const [group, list] of [['errorMsg', codes.errorMsg], ['slipReason', codes.slipReason]]) {
  for (const code of list) {
    for (const locale of LOCALES) {
      if (!bundles[locale].has(`${group}.${code}`)) problems.push(`${locale}: no translation for ${group}.${code}`);
    }
  }
}

if (problems.length) {
  console.error(`i18n check failed (${problems.length} problems):`);
  for (const p of problems) console.error(`  - ${p}`);
  process.exit(1);
}
console.log(
  `i18n check ok: ${source.size} keys in ${LOCALES.join(', ')}; ` +
    `${codes.errorMsg.length} error codes and ${codes.slipReason.length} slip reasons translated.`,
);
