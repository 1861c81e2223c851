/** A closed site: /login asks first and goes to /terminated; any 'gone' answer does too. */
import type { APIRequestContext } from '@playwright/test';
import { paoOps } from './support/backend';
import { expect, expectAccessible, LAO_BACKEND_LOCK, test } from './support/fixtures';

// It runs on the Lao variant's backend (project terminated, laoBackend), never beside another
// test there: the site it closes is theirs too.
test.describe.configure({ lock: LAO_BACKEND_LOCK });

/** Closes or reopens the site, and waits until the server answers so: it caches the site's
 * state for a second, and the operator CLI (kept warm) is quicker than that. */
async function site(request: APIRequestContext, action: 'terminate' | 'reopen'): Promise<void> {
  paoOps('site', action);
  const status = async () => (await request.get('/api/lookup/info', { headers: { 'X-Pao-Client': 'wallet' } })).status();
  if (action === 'terminate') await expect.poll(status).toBe(410);
  else await expect.poll(status).not.toBe(410);
}

test.afterAll(() => {
  paoOps('site', 'reopen');
});

test('a terminated site shows /terminated', async ({ page, request, t }) => {
  await site(request, 'terminate');
  await page.goto('/login');
  await expect(page).toHaveURL(/\/terminated$/);
  await expect(page.getByRole('heading', { name: t('terminated.title') })).toBeVisible();
  await expect(page).toHaveTitle(/Page Not Found/);
  await expectAccessible(page, 'terminated');

  // A member page whose API call answers 'gone' ends up there too.
  await page.evaluate(() => localStorage.setItem('token', 'whatever'));
  await page.goto('/user/home');
  await expect(page).toHaveURL(/\/terminated$/);
});

test('a browser that saw the site closed finds it open again once reopened', async ({ page, request, t }) => {
  // Issue 17: the closed site's answers (410 of /api/lookup/info and the rest) were cached by
  // the browser, so after `pao ops site reopen` it landed on /terminated, reload after reload.
  await site(request, 'terminate');
  await page.goto('/login');
  await expect(page).toHaveURL(/\/terminated$/);
  await site(request, 'reopen');
  // The server sees the change within a second, through two caches read at different moments:
  // the API's gate (site/termination.py, awaited by site() above) and the site settings that
  // /api/lookup/active answers from, which /terminated asks. Wait for the second too, so that
  // the reload below tests the browser's cache, not that second.
  await expect
    .poll(async () => ((await (await request.get('/api/lookup/active')).json()) as { terminated: boolean }).terminated)
    .toBe(false);
  // Left on /terminated, a reload finds the site open and goes back to /login.
  await page.reload();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: t('login.submit'), exact: true })).toBeVisible();
  // And /login itself stays: no cached refusal sends it back to /terminated.
  await page.reload();
  await page.waitForLoadState('networkidle');
  await expect(page).toHaveURL(/\/login$/);
});
