#!/usr/bin/env node
// i18n completeness over every strings file (locales/<lng>/*.json: the up-front translation.json
// and the feature parts): all languages have the same files, every key of th exists in la and en
// (and no extra ones), each string has the same {{placeholders}}, no top-level section is in two
// files (but errorMsg: see below), and every code of lib/error-codes.json (spec §8 and the codes
// Pao added, incl. slip reasons) is translated, and each added code is described there.
// An error code's text is in the up-front translation.json when a member can meet it before
// signing in (src/lib/error-actions.test.ts says which), else in errors.json, which the screens
// that show errors fetch once painted (ADR 0034): errorMsg is the one section split in two, each
// code in exactly one of the two files.
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

const ERRORS = 'errors';
const SPLIT = { section: 'errorMsg', files: [CORE, ERRORS] };
if (!names.includes(ERRORS)) problems.push(`${SOURCE}: no ${ERRORS}.json`);
const owner = new Map();
for (const name of names) {
  for (const section of Object.keys(read(`locales/${SOURCE}/${name}.json`))) {
    const split = section === SPLIT.section && SPLIT.files.includes(name) && SPLIT.files.includes(owner.get(section));
    if (owner.has(section) && !split) problems.push(`section ${section} is in both ${owner.get(section)}.json and ${name}.json`);
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

// English counts agree with their number ("1 withdrawals" was shown): a string that counts
// ({{count}}) is a plural pair, key_one and key_other, unless its words do not change with the
// number (listed here, with the reason).
const COUNT_NEUTRAL = new Set([
  'bo.adjustments.total', // "Total: {{count}}"
  'bo.chat.unread', // "{{count}} unread"
  'agent.unread', // "{{count}} unread"
]);
for (const name of names) {
  for (const [key, text] of bundles.en[name]) {
    if (!text.includes('{{count}}') || COUNT_NEUTRAL.has(key)) continue;
    const base = key.replace(/_(one|other)$/, '');
    if (base === key || !bundles.en[name].has(`${base}_one`) || !bundles.en[name].has(`${base}_other`)) {
      problems.push(`en/${name}.json: ${key} counts but is not a plural pair (${base}_one, ${base}_other)`);
    }
  }
}

// A number passed under another name that a plural noun follows ("{{n}} coins left", "within
// {{minutes}} minutes") escapes the check above and read "1 coins left": a count goes by
// {{count}}, in a plural pair. Listed here: the numbers that are never one, with the reason.
const NUMBER_WORDS = /\{\{\s*(n|number|seconds|minutes|hours|days|weeks|coins|times)\s*\}\}\s+[A-Za-z]+s\b/;
const NEVER_ONE = new Set([
  'bo.withdrawals.deposits', // "Deposits, last {{days}} days": the queue's fixed window, 7 days
]);
for (const name of names) {
  for (const [key, text] of bundles.en[name]) {
    if (NUMBER_WORDS.test(text) && !NEVER_ONE.has(key)) {
      problems.push(`en/${name}.json: ${key} counts with a number that is not {{count}}; use a plural pair`);
    }
  }
}

// lib/error-codes.json: { errorMsg: {spec: [...], added: {CODE: description}, client: {...}},
// slipReason: {spec, added}, httpLayer: {...} }. A code Pao added beyond the spec must say what
// answers it; a code is listed once.
const catalogue = read('lib/error-codes.json');
function codesOf(group, name) {
  const { spec = [], added = {}, client = {} } = catalogue[group] ?? {};
  for (const [code, description] of Object.entries({ ...added, ...client })) {
    if (typeof description !== 'string' || description.trim() === '') {
      problems.push(`error-codes.json: ${group} ${code} has no description`);
    }
  }
  const all = [...spec, ...Object.keys(added), ...Object.keys(client)];
  for (const code of new Set(all.filter((code, i) => all.indexOf(code) !== i))) {
    problems.push(`error-codes.json: ${group} ${code} is listed twice`);
  }
  if (all.length === 0) problems.push(`error-codes.json: no ${name}`);
  return all;
}
const errorCodes = codesOf('errorMsg', 'error codes');
const slipReasons = codesOf('slipReason', 'slip reasons');
const inAnyFile = (locale, key) => names.some((name) => bundles[locale][name].has(key));
for (const locale of LOCALES) {
  for (const code of errorCodes) {
    const where = SPLIT.files.filter((name) => bundles[locale][name]?.has(`errorMsg.${code}`));
    if (where.length !== 1) {
      problems.push(`${locale}: errorMsg.${code} is in ${where.length} of ${SPLIT.files.map((n) => `${n}.json`).join(' and ')} (must be in one)`);
    }
  }
  for (const code of slipReasons) {
    if (!inAnyFile(locale, `slipReason.${code}`)) problems.push(`${locale}: no translation for slipReason.${code}`);
  }
}

report();
console.log(
  `i18n check ok: ${keyCount} keys in ${names.length} files (${names.join(', ')}) in ${LOCALES.join(', ')}; ` +
    `${errorCodes.length} error codes and ${slipReasons.length} slip reasons translated.`,
);
