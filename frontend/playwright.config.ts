/**
 * Browser tests against the real backend: the config starts `pao` on a free port with a fresh
 * data directory and the sandbox on, and drives Debian's chromium (never a downloaded browser).
 * Set PAO_E2E_BASE_URL to test a server that is already running instead, PAO_BIN to use another
 * `pao` command than ../.venv/bin/pao (and PAO_PYTHON its Python, which prepares the data
 * directories and runs the warm operator CLI).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, type Project } from '@playwright/test';
import type { AppOptions } from './e2e/support/fixtures';

// One backend per parallel worker, each with its own port and data directory, so that tests
// which change site settings (OTP on/off) never meet another worker's tests; the closed site
// is the Lao backend's, whose tests take turns (below).
// Chosen once in the runner process; workers inherit them through the environment and pick
// theirs by parallel index (e2e/support/fixtures.ts).
const external = process.env.PAO_E2E_BASE_URL;
const workers = external ? 1 : Number(process.env.PAO_E2E_WORKERS ?? 2);
// One more backend, run as the Lao variant (PAO_LAO_MODE=1), for the phone-lao-variant project,
// the Lao dashboard and the closed site (terminated): the last port and data directory of the
// lists.
const backends = workers + 1;
if (!process.env.PAO_E2E_PORTS) {
  const probe = spawnSync(process.execPath, [
    '-e',
    // Holds every probe open until all are chosen, so that no port is handed out twice.
    `const net=require('net');const n=${backends};const held=[];` +
      "const next=()=>{if(held.length===n){console.log(held.map((s)=>s.address().port).join(','));" +
      "held.forEach((s)=>s.close());return}" +
      "const s=net.createServer().listen(0,'127.0.0.1',()=>{held.push(s);next()})};next()",
  ]);
  process.env.PAO_E2E_PORTS = probe.stdout.toString().trim();
}
process.env.PAO_E2E_DATA_DIRS ??= Array.from({ length: backends }, () =>
  mkdtempSync(join(tmpdir(), 'pao-e2e-')),
).join(',');
const ports = process.env.PAO_E2E_PORTS.split(',');
const dataDirs = process.env.PAO_E2E_DATA_DIRS.split(',');

// The backend command; PAO_BIN points elsewhere (e.g. another checkout) when needed.
const pao = process.env.PAO_BIN ?? '../.venv/bin/pao';
const python = process.env.PAO_PYTHON ?? '../.venv/bin/python';
const baseURL = external ?? `http://127.0.0.1:${ports[0]}`;
const phone = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, hasTouch: true };
const desktop = { viewport: { width: 1280, height: 800 } };
// The back office is desktop first: a 1366×768 laptop.
const backOffice = { viewport: { width: 1366, height: 768 } };
// The Lao variant's spec runs on the Lao backend only, in its own project.
const laoVariant = /lao-variant\.spec/;
const notPlayerApp = /terminated\.spec|backoffice.*\.spec|lao-variant\.spec/;

// phone-th runs every player-app test. The other three run the main path (@main: register,
// login, profile, password, logout; a wrong password) and each one more share of the player's
// flows, tagged with the project that runs it (@la phone-la, @en phone-en, @desktop
// desktop-en): every flow runs in Thai on the phone and once more in another language or on the
// desktop, instead of four times over (the strings' completeness per language is
// `npm run check:i18n`'s).
type P = Project<AppOptions>;
const projects: P[] = [
  // The same build as the Lao variant (the server tells it): Lao number, LAK wallet, Lao QR.
  // First: files are handed to the workers in the projects' order, and this one long test
  // handed out last kept one worker busy half a minute after the other had finished.
  { name: 'phone-lao-variant', use: { ...phone, appLocale: 'la', variant: 'la' }, testMatch: laoVariant },
  {
    // Closes the whole site: on the Lao variant's backend, whose tests hold a lock
    // (LAO_BACKEND_LOCK, e2e/support/fixtures.ts) so that none runs while it is closed. As a
    // project that depended on all the others it ran after them, alone: one worker idle.
    name: 'terminated',
    use: { ...phone, appLocale: 'en', laoBackend: true },
    testMatch: /terminated\.spec/,
  },
  { name: 'phone-th', use: { ...phone, appLocale: 'th' }, testIgnore: notPlayerApp },
  { name: 'phone-la', use: { ...phone, appLocale: 'la' }, grep: /@main|@la\b/, testIgnore: notPlayerApp },
  { name: 'phone-en', use: { ...phone, appLocale: 'en' }, grep: /@main|@en\b/, testIgnore: notPlayerApp },
  { name: 'desktop-en', use: { ...desktop, appLocale: 'en' }, grep: /@main|@desktop\b/, testIgnore: notPlayerApp },
  // Staff in the back office; each test runs in th and en (e2e/backoffice.spec.ts).
  { name: 'backoffice', use: { ...backOffice }, testMatch: /backoffice.*\.spec/ },
];

export default defineConfig<AppOptions>({
  testDir: 'e2e',
  // Files are spread over the workers; a file's tests run in order on its worker's backend.
  workers,
  fullyParallel: false,
  // `make test` (CI included) retries a failed test once: on a loaded 2-core machine a few tests
  // lose a race with the clock; a retried pass is still reported ("flaky") and counted by
  // .ci/summarize.py, and a test failing twice fails the run.
  retries: Number(process.env.PAO_E2E_RETRIES ?? (process.env.CI ? 1 : 0)),
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: 'test-results/artifacts',
  use: {
    baseURL,
    // A trace is recorded on a failed test's retry (make test retries once), not on every
    // test: recording one (screencast frames encoded by the browser, sent to the runner)
    // was a quarter of the browser tests' CPU, thrown away for every test that passed.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects,
  webServer: external
    ? undefined
    : [...ports.slice(0, backends).map((port, index) => ({
        // `pao migrate`, `pao demo` and the settings below in one process
        // (e2e/support/prepare_backend.py): as five `pao` processes, each importing the backend,
        // they were most of the minute before the first test. Beside the server, the operator
        // CLI kept warm on the same data directory (e2e/support/ops_server.py): the tests'
        // `pao ops …` without a process each.
        // Every test registers from 127.0.0.1: the OTP and SMS caps (the backend's test_otp and
        // test_sms_budget test them) refused a full suite's members with OTP_BLOCK.
        // The demo's daily slip window closes 23:50–00:10 Bangkok time: a run at that hour
        // (16:50–17:10 UTC) had every slip test refused. Equal ends mean never closed; the
        // window itself is the backend's to test (test_slips, test_site_settings).
        // It says it is starting, and that is all Playwright waits for (`wait`, raced with
        // `url`): Playwright starts its web servers one after another, each waited for before
        // the next, and the backends prepare at the same time instead. The last web server
        // below waits until every backend answers.
        command:
          `echo pao-e2e: backend starting && ${python} e2e/support/prepare_backend.py migrate demo ` +
          `'ops settings set otpDailyCapPerIp 100000' 'ops settings set otpHourlyCapPerPrefix 100000' ` +
          `'ops settings set otpHourlyCap 100000' 'ops settings set slipClosedFrom 00:00' ` +
          `'ops settings set slipClosedTo 00:00' && ` +
          `{ ${python} e2e/support/ops_server.py ${join(dataDirs[index] ?? '', 'ops.sock')} & } && ${pao} serve`,
        url: `http://127.0.0.1:${port}/healthz`,
        wait: { stdout: /pao-e2e: backend starting/ },
        timeout: 120_000,
        reuseExistingServer: false,
        stdout: 'ignore' as const,
        stderr: 'pipe' as const,
        env: {
          PAO_DATA_DIR: dataDirs[index] ?? '',
          PAO_PORT: port,
          PAO_HOST: '127.0.0.1',
          PAO_SANDBOX: '1',
          PAO_LAO_MODE: index === workers ? '1' : '0',
          // The Thai backends check slips through SlipOK's wire format (the sandbox speaks it):
          // the slip tests run the real SlipOK adapter; the Lao one keeps Pao's own dialect.
          PAO_SLIP_VERIFIER: index === workers ? 'pao' : 'slipok',
          // Registration codes likewise through ThaiBulkSMS's OTP API (ADR 0030): every OTP
          // registration on a Thai backend runs the real adapter; the Lao one keeps Pao's own.
          PAO_OTP_PROVIDER: index === workers ? 'pao' : 'thaibulksms',
          // Their bank QRs are SCB's (QR create v2, SCB's payment confirmation checked by its
          // inquiry; ADR 0029), all through the sandbox bank speaking SCB.
          PAO_BANK_API: index === workers ? 'pao' : 'scb',
        },
      })),
      {
        // A backend that fails to start fails the run here, when the wait times out; its
        // stderr (piped above) says why.
        command: `${process.execPath} e2e/support/wait-for-backends.mjs ${ports
          .slice(0, backends)
          .map((port) => `http://127.0.0.1:${port}/healthz`)
          .join(' ')}`,
        wait: { stdout: /pao-e2e: all backends up/ },
        timeout: 120_000,
        reuseExistingServer: false,
        stdout: 'ignore' as const,
        stderr: 'pipe' as const,
      },
    ],
});
