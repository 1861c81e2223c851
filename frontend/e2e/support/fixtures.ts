/**
 * Test fixtures: the backend of this worker, the app language per project (set before the app
 * loads unless a test already chose one), translations for finding elements by their visible
 * names, and an axe check.
 */
import { readdirSync, readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

export type Locale = 'th' | 'la' | 'en';
export type AppOptions = { appLocale: Locale };

// All of a language's strings files (the up-front one and the feature parts) in one tree.
const load = (locale: Locale): unknown => {
  const dir = new URL(`../../src/locales/${locale}/`, import.meta.url);
  const files = readdirSync(dir).filter((name) => name.endsWith('.json'));
  return Object.assign({}, ...files.map((name) => JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as object));
};
const bundles: Record<Locale, unknown> = { th: load('th'), la: load('la'), en: load('en') };

/** The text the app shows for a key in a language, with {{placeholders}} filled. */
export function tr(locale: Locale, key: string, vars: Record<string, string | number> = {}): string {
  let node: unknown = bundles[locale];
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== 'string') throw new Error(`no translation ${locale}:${key}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name] ?? ''));
}

/** Fails on serious or critical axe-core violations of the current page. */
export async function expectAccessible(page: Page, label = page.url()): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, `axe violations on ${label}`).toEqual([]);
}

type Backend = { url: string; port: string; dataDir: string };

export const test = base.extend<
  AppOptions & { t: (key: string, vars?: Record<string, string | number>) => string },
  { backend: Backend }
>({
  // playwright.config.ts starts one backend per parallel worker; this worker takes its own and
  // points `pao ops` (support/backend.ts) at the same data directory.
  backend: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const ports = (process.env.PAO_E2E_PORTS ?? '').split(',');
      const dataDirs = (process.env.PAO_E2E_DATA_DIRS ?? '').split(',');
      const index = workerInfo.parallelIndex % ports.length;
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
  page: async ({ page, appLocale }, use) => {
    await page.addInitScript((locale) => {
      if (!localStorage.getItem('locale')) localStorage.setItem('locale', locale);
    }, appLocale);
    // The app needs nothing from outside; keep the browser off the network.
    await page.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
    await use(page);
  },
  t: async ({ appLocale }, use) => {
    await use((key, vars) => tr(appLocale, key, vars));
  },
});

export { expect };
