/**
 * Test fixtures: the backend of this worker, the app language per project (set before the app
 * loads unless a test already chose one), translations for finding elements by their visible
 * names, an axe check, and a Content-Security-Policy guard: every test fails if any page of its
 * browser context (popups included) reports a CSP violation, so the server's policy and what
 * the app loads never drift apart.
 */
import { readdirSync, readFileSync } from 'node:fs';
import axe from 'axe-core';
import { test as base, expect, type BrowserContext, type Locator, type Page } from '@playwright/test';

export type Locale = 'th' | 'la' | 'en';
/** variant 'la': the worker's backend is the Lao variant's (PAO_LAO_MODE=1, the last of the
 * config's backends) and no language is saved first, so the app starts in the server's default.
 * laoBackend: the Lao variant's backend with the app as the other projects start it (appLocale
 * saved first), for a test that must not share a worker's backend: terminated.spec.ts closes the
 * whole site, and the Lao backend's few tests take turns (LAO_BACKEND_LOCK). */
export type AppOptions = { appLocale: Locale; variant: 'th' | 'la'; laoBackend: boolean };

/** The lock (Playwright's test locks) of every test on the Lao variant's backend: one of them
 * closes the whole site (terminated.spec.ts), so none of them runs beside another. */
export const LAO_BACKEND_LOCK = 'lao-backend';

// All of a language's strings files (the up-front one and the feature parts) in one tree; a
// section split between files (errorMsg: up-front and errors.json) is merged.
const load = (locale: Locale): unknown => {
  const dir = new URL(`../../src/locales/${locale}/`, import.meta.url);
  const files = readdirSync(dir).filter((name) => name.endsWith('.json'));
  const tree: Record<string, unknown> = {};
  for (const name of files) {
    const sections = JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as Record<string, unknown>;
    for (const [section, value] of Object.entries(sections)) {
      tree[section] = typeof value === 'object' ? { ...(tree[section] as object | undefined), ...(value as object) } : value;
    }
  }
  return tree;
};
const bundles: Record<Locale, unknown> = { th: load('th'), la: load('la'), en: load('en') };

function lookup(locale: Locale, key: string): string {
  let node: unknown = bundles[locale];
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== 'string') throw new Error(`no translation ${locale}:${key}`);
  return node;
}

/** The key i18next reads for a count, as the app resolves it: key_one, key_other… (by the
 * language's plural rules) where the strings have them, else the key itself. */
function plural(locale: Locale, key: string, count: string | number | undefined): string {
  if (count === undefined) return key;
  const form = `${key}_${new Intl.PluralRules(locale).select(Number(count))}`;
  try {
    lookup(locale, form);
    return form;
  } catch {
    return key;
  }
}

/** The text the app shows for a key in a language, with {{placeholders}} filled. {{unit}}, the
 * name of the amounts' currency (src/lib/currency-unit.ts), is that of `currency` unless given:
 * baht, what the Thai operator's members hold and its staff count in. */
export function tr(
  locale: Locale,
  key: string,
  vars: Record<string, string | number> = {},
  currency: 'THB' | 'LAK' = 'THB',
): string {
  const values: Record<string, string | number> = { unit: lookup(locale, `common.currency.${currency}`), ...vars };
  // `{{min, number}}` is formatted as the app's i18next formats it (grouped digits).
  return lookup(locale, plural(locale, key, vars.count)).replace(/\{\{\s*(\w+)\s*(,\s*number\s*)?\}\}/g, (_, name: string, number?: string) => {
    const value = values[name] ?? '';
    return number && typeof value === 'number' ? new Intl.NumberFormat(locale === 'la' ? 'lo' : locale).format(value) : String(value);
  });
}

type Axe = typeof axe;

/**
 * Fails on serious or critical axe-core violations of the current page, its frames included.
 *
 * axe is put into each frame once per document (a navigation drops it) and run in the page, as
 * @axe-core/playwright's legacy mode does; its default mode ran axe in every frame, then loaded
 * axe again into a new page to merge the frames' results: two loads of axe's 550 KB and a page
 * per check, over half of each check's time, and the browser tests make ≈ 150 checks. Only the
 * violations are gathered (axe's resultTypes): the passes are never read.
 */
export async function expectAccessible(page: Page, label = page.url()): Promise<void> {
  for (const frame of page.frames()) {
    const inject = async (): Promise<void> => {
      if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(axe.source);
    };
    // A child frame the tests keep off the network (a video) holds an error page: nothing to test.
    await (frame === page.mainFrame() ? inject() : inject().catch(() => undefined));
  }
  // A page still loading (a table dimmed while it refreshes: aria-busy) is judged once it is
  // not: the check and a refresh the page starts on its own would otherwise race.
  type Found = { id: string; impact?: string | null; help: string; targets: string[] }[];
  let violations: Found | null = null;
  for (let attempt = 0; violations === null; attempt += 1) {
    if (attempt > 0) await page.waitForTimeout(200);
    expect(attempt, `${label} still loading (aria-busy) after 10 s`).toBeLessThan(50);
    violations = await page.evaluate(async (): Promise<Found | null> => {
      if (document.querySelector('[aria-busy="true"]')) return null;
      // What is still fading in (a toast, a row that just arrived) is judged as it will be
      // seen, not mid-way (a half-faded background fails the contrast rule): every finite
      // animation jumps to its end, in the same task as axe starts. Endless ones run on.
      for (const animation of document.getAnimations()) {
        if (animation.effect?.getComputedTiming().iterations !== Infinity) animation.finish();
      }
      const { axe: inPage } = window as unknown as { axe: Axe };
      const results = await inPage.run(document, { resultTypes: ['violations'] });
      return results.violations.map(({ id, impact, help, nodes }) => ({
        id,
        impact,
        help,
        targets: nodes.map((node) => node.target.join(' ')),
      }));
    });
  }
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.targets.join(', ')}`);
  expect(summary, `axe violations on ${label}`).toEqual([]);
}

/**
 * A picture for a person to look at (test-results/screens/ and the like): taken when
 * PAO_E2E_SCREENS=1 (`make screens`), skipped otherwise. Nothing reads them after a CI run, and
 * the ≈ 250 a full run took (a phone's PNG at twice its pixels) were a share of its CPU. What a
 * test asserts around a picture runs either way.
 */
export async function screenshot(
  target: Pick<Page | Locator, 'screenshot'>,
  options: { path: string; fullPage?: boolean },
): Promise<void> {
  if (process.env.PAO_E2E_SCREENS === '1') await target.screenshot(options);
}

/**
 * Collects the CSP violations of every page of `context`: Chromium's console report ("Refused
 * to … because it violates the following Content Security Policy directive") and the DOM's
 * securitypolicyviolation event (re-logged, for what the console would not say). Call it on a
 * context a test makes itself (`browser.newContext()`); the `context` fixture already does.
 */
export async function watchCsp(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  context.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
      violations.push(`${message.page()?.url() ?? '?'}: ${message.text()}`);
    }
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `Content Security Policy violation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'}`,
      );
    });
  });
  return violations;
}

export function expectNoCspViolations(violations: string[]): void {
  expect(violations, 'Content-Security-Policy violations').toEqual([]);
}

type Backend = { url: string; port: string; dataDir: string };

export const test = base.extend<
  Pick<AppOptions, 'appLocale'> & { t: (key: string, vars?: Record<string, string | number>) => string },
  { backend: Backend } & Pick<AppOptions, 'variant' | 'laoBackend'>
>({
  variant: ['th', { option: true, scope: 'worker' }],
  laoBackend: [false, { option: true, scope: 'worker' }],
  // playwright.config.ts starts one backend per parallel worker; this worker takes its own and
  // points `pao ops` (support/backend.ts) at the same data directory.
  backend: [
    async ({ variant, laoBackend }, use, workerInfo) => {
      const ports = (process.env.PAO_E2E_PORTS ?? '').split(',');
      const dataDirs = (process.env.PAO_E2E_DATA_DIRS ?? '').split(',');
      // The Lao variant's backend is the last; the others are one per worker.
      const lao = ports.length - 1;
      const index = variant === 'la' || laoBackend ? lao : workerInfo.parallelIndex % Math.max(lao, 1);
      const port = ports[index] ?? '';
      const dataDir = dataDirs[index] ?? '';
      process.env.PAO_E2E_PORT = port;
      process.env.PAO_E2E_DATA_DIR = dataDir;
      await use({ url: process.env.PAO_E2E_BASE_URL ?? `http://127.0.0.1:${port}`, port, dataDir });
    },
    { scope: 'worker', auto: true },
  ],
  baseURL: async ({ backend }, use) => {
    await use(backend.url);
  },
  appLocale: ['th', { option: true }],
  context: async ({ context }, use) => {
    const violations = await watchCsp(context);
    await use(context);
    expectNoCspViolations(violations);
  },
  page: async ({ page, appLocale, variant }, use) => {
    if (variant === 'th') {
      await page.addInitScript((locale) => {
        if (!localStorage.getItem('locale')) localStorage.setItem('locale', locale);
      }, appLocale);
    }
    // The app needs nothing from outside; keep the browser off the network.
    await page.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
    await use(page);
  },
  // The Lao variant's members hold kip unless they chose baht (its spec says which it reads).
  t: async ({ appLocale, variant }, use) => {
    await use((key, vars) => tr(appLocale, key, vars, variant === 'la' ? 'LAK' : 'THB'));
  },
});

export { expect };
