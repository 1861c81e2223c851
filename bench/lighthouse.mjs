// Lighthouse (mobile preset: Moto G-class screen, simulated Slow 4G and 4x CPU slowdown) on one
// URL, in Debian's chromium (CHROME_PATH). With a token, it is put in localStorage first (the
// app's "remember me" storage) and Lighthouse keeps storage, so /user/home renders logged in.
// Usage: node lighthouse.mjs URL [TOKEN]   → one JSON line on stdout.
// LIGHTHOUSE_REPORT=path also writes the whole report there (its critical chains, LCP element and
// per-request timings are what to read when a figure moves).
import { writeFileSync } from 'node:fs';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';

const [url, token] = process.argv.slice(2);
const browser = await puppeteer.launch({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  if (token) {
    const origin = new URL(url).origin;
    // Not /login: opening /login ends a stored session (app/guards.tsx).
    await page.goto(`${origin}/healthz`, { waitUntil: 'load' });
    await page.evaluate((value) => localStorage.setItem('token', value), token);
  }
  const result = await lighthouse(
    url,
    {
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      disableStorageReset: Boolean(token),
    },
    undefined,
    page,
  );
  const lhr = result.lhr;
  if (process.env.LIGHTHOUSE_REPORT) writeFileSync(process.env.LIGHTHOUSE_REPORT, JSON.stringify(lhr));
  const audit = (id) => lhr.audits[id]?.numericValue ?? null;
  console.log(
    JSON.stringify({
      url,
      finalUrl: lhr.finalDisplayedUrl,
      performance: Math.round(lhr.categories.performance.score * 100),
      accessibility: Math.round(lhr.categories.accessibility.score * 100),
      lcpMs: audit('largest-contentful-paint'),
      fcpMs: audit('first-contentful-paint'),
      tbtMs: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
      throttling: lhr.configSettings.throttling,
      formFactor: lhr.configSettings.formFactor,
      lighthouse: lhr.lighthouseVersion,
      failedA11y: Object.values(lhr.audits)
        .filter((a) => lhr.categories.accessibility.auditRefs.some((r) => r.id === a.id))
        .filter((a) => a.score === 0)
        .map((a) => a.id),
    }),
  );
} finally {
  await browser.close();
}
