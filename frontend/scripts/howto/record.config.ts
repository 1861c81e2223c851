/**
 * Playwright config of the how-to recording (scripts/record-howto.sh): the browser-test config's
 * backend and browser, one worker, only the recording spec.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import base from '../../playwright.config';
import type { AppOptions } from '../../e2e/support/fixtures';

// The backend command is relative to the frontend folder, where the main config lives.
const frontend = fileURLToPath(new URL('../..', import.meta.url));
const servers = (Array.isArray(base.webServer) ? base.webServer.slice(0, 1) : []).map((server) => ({
  ...server,
  cwd: frontend,
}));

export default defineConfig<AppOptions>({
  ...base,
  testDir: '.',
  testMatch: /record-howto\.spec\.ts/,
  workers: 1,
  retries: 0,
  projects: [{ name: 'howto', use: { appLocale: 'th' } }],
  webServer: servers,
});
