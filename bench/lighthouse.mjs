// Lighthouse (mobile preset: Moto G-class screen, simulated Slow 4G and 4x CPU slowdown) on one
// URL, in Debian's chromium (CHROME_PATH). With a token, it is put in localStorage first (the
// app's "remember me" storage) and Lighthouse keeps storage, so /user/home renders logged in.
// Usage: node lighthouse.mjs URL [TOKEN]   → one JSON line on stdout.
// LIGHTHOUSE_REPORT=path also writes the whole report there (its critical chains, LCP element and
// per-request timings are what to read when a figure moves). LIGHTHOUSE_LCP_PATH=path writes what
// ends last in the simulation behind the LCP figure (Lighthouse's "Lantern": every request that
// ended before the observed LCP, with the scripts' and layouts' tasks, replayed on Slow 4G over six
// HTTP/1.1 connections), each node with its simulated start and end and what it waited for.
import { writeFileSync } from 'node:fs';
import lighthouse from 'lighthouse';
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js';
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
  if (process.env.LIGHTHOUSE_LCP_PATH) writeFileSync(process.env.LIGHTHOUSE_LCP_PATH, await lcpPath(result));
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

/** The last nodes to end in Lantern's LCP simulation, latest first, as text. */
async function lcpPath({ artifacts, lhr }) {
  const data = {
    trace: artifacts.Trace,
    devtoolsLog: artifacts.DevtoolsLog,
    gatherContext: artifacts.GatherContext,
    settings: lhr.configSettings,
    URL: artifacts.URL,
    SourceMaps: artifacts.SourceMaps ?? [],
    simulator: null,
  };
  const metric = await LanternLargestContentfulPaint.request(data, { computedCache: new Map() });
  const path = (url) => url.replace(/^https?:\/\/[^/]+/, '');
  const label = (node) =>
    node.type === 'network'
      ? `${node.request.resourceType} ${node.request.priority} ${path(node.request.url)}`
      : `task ${Math.round(node.duration / 1000)} ms (${[...new Set(node.childEvents.map((e) => e.name))].slice(0, 4).join(', ')})`;
  const lines = [`LCP ${Math.round(metric.timing)} ms (optimistic ${Math.round(metric.optimisticEstimate.timeInMs)}, pessimistic ${Math.round(metric.pessimisticEstimate.timeInMs)})`];
  for (const [name, estimate] of [['optimistic', metric.optimisticEstimate], ['pessimistic', metric.pessimisticEstimate]]) {
    lines.push(`${name}: start–end ms, node, waited for`);
    const latest = [...estimate.nodeTimings.entries()].sort((a, b) => b[1].endTime - a[1].endTime).slice(0, 20);
    for (const [node, timing] of latest) {
      const waited = node.getDependencies().map((d) => (d.type === 'network' ? path(d.request.url) : 'a task')).join(', ');
      lines.push(`  ${Math.round(timing.startTime)}–${Math.round(timing.endTime)} ${label(node)} <- ${waited}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
