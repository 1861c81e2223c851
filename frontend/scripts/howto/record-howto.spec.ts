/**
 * Records the demo how-to videos: one short screencast per how-to (wallet, entering a game,
 * checking balances, receiving and ending a bonus) of Pao's own screens, with Playwright's video
 * recording, on a phone-sized page in Thai. Run by scripts/record-howto.sh, which writes them to
 * public/media/howto/<key>.webm (the demo content's how-to URLs, served with the built app).
 *
 * Each flow logs in through the API first (the token in storage, the agreement accepted), so the
 * video starts on the screen it explains rather than on the login form.
 */
import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { createMember, paoOps, type Member } from '../../e2e/support/backend';
import { expect, test } from '../../e2e/support/fixtures';

const HEADERS = { 'X-Pao-Client': 'wallet' };
const SIZE = { width: 360, height: 740 };
const RAW_DIR = process.env.HOWTO_RAW_DIR ?? 'test-results/howto-raw';
type T = (key: string, vars?: Record<string, string | number>) => string;

async function tokenOf(request: APIRequestContext, member: Member): Promise<string> {
  const login = await request.post('/api/login', {
    headers: HEADERS,
    data: { username: member.phone, password: member.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const { token } = (await login.json()) as { token: string };
  const agreed = await request.put('/api/account/agreement', {
    headers: { ...HEADERS, Authorization: `Bearer ${token}` },
  });
  expect(agreed.ok(), await agreed.text()).toBe(true);
  return token;
}

/** A pause the viewer can follow. */
const beat = (page: Page, ms = 700) => page.waitForTimeout(ms);

/** Runs `flow` in a fresh recorded context logged in as `member`; saves the video as `key`. */
async function record(browser: Browser, baseURL: string, token: string, key: string, flow: (page: Page) => Promise<void>) {
  const context = await browser.newContext({
    baseURL,
    viewport: SIZE,
    deviceScaleFactor: 1,
    hasTouch: true,
    recordVideo: { dir: RAW_DIR, size: SIZE },
  });
  await context.addInitScript((stored) => {
    localStorage.setItem('token', stored);
    localStorage.setItem('locale', 'th');
  }, token);
  // The app needs nothing from outside.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
  const page = await context.newPage();
  await flow(page);
  await beat(page, 1000);
  const video = page.video();
  await context.close();
  mkdirSync(RAW_DIR, { recursive: true });
  await video?.saveAs(`${RAW_DIR}/${key}.webm`);
}

async function home(page: Page, t: T) {
  await page.goto('/user/home');
  await expect(page.getByRole('heading', { name: t('home.totalBalance') })).toBeVisible();
  await beat(page);
}

test('record the how-to videos', async ({ browser, request, t, baseURL }) => {
  test.setTimeout(240_000);
  const member = await createMember(request);
  paoOps('deposit', member.phone, '500', '--note', 'how-to recording');
  const token = await tokenOf(request, member);
  const base = baseURL ?? '';

  await record(browser, base, token, 'wallet', async (page) => {
    await home(page, t);
    await page.getByRole('button', { name: t('home.deposit') }).click();
    const deposit = page.getByRole('dialog', { name: t('deposit.title') });
    const tabs = deposit.getByRole('tab');
    await expect(tabs.first()).toBeVisible();
    await beat(page, 1200);
    if ((await tabs.count()) > 1) await tabs.nth(1).click();
    await beat(page, 1200);
  });

  await record(browser, base, token, 'enter_game', async (page) => {
    await home(page, t);
    const card = page.getByRole('button', { name: new RegExp(`^Joker: `) });
    await card.scrollIntoViewIfNeeded();
    await beat(page);
    await card.click();
    const modal = page.getByRole('dialog', { name: 'Joker' });
    await expect(modal).toBeVisible();
    await beat(page);
    await modal.getByRole('button', { name: t('games.activate') }).click();
    await expect(modal.getByRole('button', { name: t('games.play') })).toBeVisible();
    await beat(page, 1200);
  });

  await record(browser, base, token, 'check_balance', async (page) => {
    await home(page, t);
    await page.getByRole('button', { name: t('home.refresh') }).click();
    await beat(page, 1000);
    await page.goto('/user/statement');
    await beat(page, 1500);
  });

  await record(browser, base, token, 'receive_bonus', async (page) => {
    await page.goto('/user/bonus');
    await expect(page.getByRole('heading', { name: t('promotions.bonus.title'), level: 1 })).toBeVisible();
    await beat(page);
    await page.getByRole('button', { name: /Daily 10%/ }).click();
    const modal = page.getByRole('dialog', { name: 'Daily 10%' });
    await beat(page);
    await modal.getByRole('button', { name: t('promotions.bonus.receive') }).click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await beat(page, 1200);
    await page.getByRole('alertdialog').getByRole('button', { name: t('common.ok'), exact: true }).click();
    await beat(page);
  });

  await record(browser, base, token, 'end_bonus', async (page) => {
    await page.goto('/user/bonus');
    await expect(page.getByRole('heading', { name: t('promotions.bonus.active') })).toBeVisible();
    await beat(page);
    await page.getByRole('button', { name: t('promotions.bonus.cancel') }).click();
    await beat(page);
    await page.getByRole('alertdialog').getByRole('button', { name: t('promotions.bonus.cancelConfirm') }).click();
    await expect(page.getByRole('alertdialog').getByRole('heading')).toBeVisible();
    await beat(page, 1500);
  });
});
