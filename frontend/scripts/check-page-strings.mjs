#!/usr/bin/env node
// Every lazy page loads the strings it shows: the sections ('feature' of 'feature.key') used by
// the page's module and everything it imports, statically or on demand (its modals), must be in
// the up-front locales/th/translation.json or in a part the page declares in src/app/router.tsx.
// A missing part would show raw keys on that screen only, which nothing else would notice.
// The error texts are the exception (ADR 0034): errorMsg is split between the up-front file (what
// a member can meet before signing in) and errors.json, with errorAction, which no page declares:
// the components that show errors fetch it (src/hooks/use-error-text.ts). So only the module that
// picks an error's text, src/lib/errors.ts, may name them; any other would bypass that.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROUTER = 'src/app/router.tsx';
// A call up to the `);` that ends the statement's last line.
const SCREEN = /\blazyScreen\(\s*'([^']+)'([\s\S]*?)\);$/gm;
const STRINGS = /\bstrings:\s*\[([^\]]*)\]/;

/**
 * The parts each lazy screen of src/app/router.tsx declares, read from its
 * `lazyScreen('name', { strings: ['part', …], … });` statements.
 * @returns {Map<string, string[]>} module path (from frontend/, e.g. 'src/app/routes/login.tsx') → parts
 */
function pageStrings() {
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

const FRONTEND = fileURLToPath(new URL('..', import.meta.url));
const LOCALES = join(FRONTEND, 'src/locales/th');
const CORE = 'translation';
const ENTRY = 'src/main.tsx';

const sectionsOf = (part) => Object.keys(JSON.parse(readFileSync(join(LOCALES, `${part}.json`), 'utf8')));
const parts = readdirSync(LOCALES)
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.slice(0, -'.json'.length));
// errors.json's sections: read only through ERROR_TEXTS, never declared by a page.
const ERRORS = 'errors';
const ERROR_TEXTS = 'src/lib/errors.ts';
// A section in the up-front file and a part (errorMsg) counts as up-front.
const partOf = new Map(
  [...parts.filter((part) => part !== CORE), CORE].flatMap((part) => sectionsOf(part).map((section) => [section, part])),
);
const errorSections = sectionsOf(ERRORS);
const sections = [...partOf.keys()];
// A section name right before '.' inside a string: t('home.title'), t(`home.${key}`), `errorMsg.${code}`.
const SECTION_USE = new RegExp(`['"\`](${sections.join('|')})\\.`, 'g');
const STATIC_IMPORT = /(?:from|import)\s+'([^']+)'/g;
// `import type …` brings no code and shows no string: its module's literal types (e.g. the back
// office's permission names, 'chat.use') are not translation keys, so it is not followed.
const TYPE_IMPORT = /^import type\s[^;]+;/gm;
// A route's permission (`permission: 'promotions.manage'`) names a permission, not a string.
const PERMISSION = /\bpermission:\s*'[^']*'/g;
const DYNAMIC_IMPORT = /import\(\s*'([^']+)'\s*\)/g;

function resolve(from, specifier) {
  let base;
  if (specifier.startsWith('@/')) base = join(FRONTEND, 'src', specifier.slice(2));
  else if (specifier.startsWith('.')) base = join(dirname(from), specifier);
  else return null; // a package
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null; // styles, JSON, images
}

/** Sections used by `module` and what it imports (on demand too, unless told not), with a user each. */
function usedSections(module, { onDemand = true } = {}) {
  const used = new Map();
  const seen = new Set();
  const stack = [module];
  while (stack.length) {
    const file = stack.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8').replace(TYPE_IMPORT, '').replace(PERMISSION, '');
    for (const [, section] of source.matchAll(SECTION_USE)) {
      if (!used.has(section)) used.set(section, relative(FRONTEND, file));
    }
    const imports = [...source.matchAll(STATIC_IMPORT), ...(onDemand ? source.matchAll(DYNAMIC_IMPORT) : [])];
    for (const [, specifier] of imports) {
      const target = resolve(file, specifier);
      if (target) stack.push(target);
    }
  }
  return used;
}

const problems = [];

// Error texts only through ERROR_TEXTS: every source file's code (not its comments) but the tests'.
const ERROR_USE = new RegExp(`['"\`](${errorSections.join('|')})\\.`);
(function scan(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) scan(path);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      const file = relative(FRONTEND, path);
      const code = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      if (file !== ERROR_TEXTS && ERROR_USE.test(code)) {
        problems.push(`${file}: names an error text (${errorSections.join(', ')}) itself; use useErrorText (${ERROR_TEXTS})`);
      }
    }
  }
})(join(FRONTEND, 'src'));

const pages = pageStrings();
for (const [module, declared] of pages) {
  for (const part of declared) {
    if (!parts.includes(part) || part === CORE) problems.push(`${module}: declares unknown part '${part}'`);
  }
  for (const [section, file] of usedSections(join(FRONTEND, module))) {
    const part = partOf.get(section);
    if (part === ERRORS && file === ERROR_TEXTS) continue;
    if (part !== CORE && !declared.includes(part)) {
      problems.push(`${module}: ${file} shows '${section}.…' (in ${part}.json) but the page does not load '${part}'`);
    }
  }
}

// The entry and what it imports statically render before any page's parts: up-front strings only.
for (const [section, file] of usedSections(join(FRONTEND, ENTRY), { onDemand: false })) {
  const part = partOf.get(section);
  if (part === ERRORS && file === ERROR_TEXTS) continue;
  if (part !== CORE) problems.push(`${ENTRY}: ${file} shows '${section}.…' (in ${part}.json), not up-front`);
}

// The back office (its own entry) loads the up-front strings, its own part and the chat's
// (support: the shared message view and composer of its inbox; src/backoffice/i18n.ts) and the
// member part (member: the player's bonus card and modal in the promotions editor's preview),
// nothing else; and the player app never shows the back office's strings (no page may declare that part).
const BACK_OFFICE_ENTRY = 'src/backoffice/main.tsx';
const BACK_OFFICE_PART = 'backoffice';
const BACK_OFFICE_PARTS = [CORE, BACK_OFFICE_PART, 'support', 'member', ERRORS];
for (const [section, file] of usedSections(join(FRONTEND, BACK_OFFICE_ENTRY))) {
  const part = partOf.get(section);
  if (!BACK_OFFICE_PARTS.includes(part)) {
    problems.push(`${BACK_OFFICE_ENTRY}: ${file} shows '${section}.…' (in ${part}.json), which the back office does not load`);
  }
}
for (const [module, declared] of pages) {
  if (declared.includes(BACK_OFFICE_PART)) problems.push(`${module}: a player page loads the back office's strings`);
  if (declared.includes(ERRORS)) problems.push(`${module}: declares '${ERRORS}', which useErrorText fetches after the first paint`);
}

if (problems.length) {
  console.error(`page strings check failed (${problems.length} problems):`);
  for (const p of problems) console.error(`  - ${p}`);
  process.exit(1);
}
console.log(
  `page strings check ok: the entry and ${pages.size} lazy pages load every string part they show; ` +
    'the back office shows only its own and the up-front strings.',
);
