/**
 * The dashboard at 1366×768 (th): a viewer opens it after signing in; a member deposits with a
 * sandbox TrueMoney gift link; on reload today's TrueMoney row and the deposit total include
 * it, the chart by day is drawn, the queue counts link to their queues, and axe passes.
 * A manager's goodwill credit is a figure of its own, not a deposit and not in the net; each
 * figure says how it moved from the period before (yesterday for today, the day before for
 * yesterday). The Lao server's dashboard: backoffice-dashboard-lao.spec.ts.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { createMember, type Member } from './support/backend';
import { expect, expectAccessible, test, screenshot } from './support/fixtures';
import { enrolledStaff, openBackOffice } from './support/staff';

const HEADERS = { 'X-Pao-Client': 'wallet' };

async function depositTrueMoney(request: APIRequestContext, member: Member, amount: number): Promise<void> {
  const login = await request.post('/api/login', { headers: HEADERS, data: { username: member.phone, password: member.password } });
  const { token } = (await login.json()) as { token: string };
  const minted = await request.post('/sandbox/truemoney/vouchers', { data: { amount } });
  expect(minted.status(), await minted.text()).toBe(201);
  const { link } = (await minted.json()) as { link: string };
  const sent = await request.post('/api/wallet/truelink', { headers: { ...HEADERS, Authorization: `Bearer ${token}` }, data: { link } });
  expect(sent.status(), await sent.text()).toBe(200);
}

const number = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''));

/** The count and sum cells of a channel's row in the channels table. */
async function channelRow(page: Page, name: string): Promise<{ count: number; sum: number }> {
  const row = page.getByRole('row', { name: new RegExp(`^${name}`) });
  const cells = row.getByRole('cell');
  return { count: number(await cells.nth(0).textContent()), sum: number(await cells.nth(1).textContent()) };
}

test.use({ appLocale: 'th' });

test('a viewer sees a member deposit of today on the dashboard', async ({ page, request, t }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const viewer = await enrolledStaff(request, 'viewer');
  await openBackOffice(page, t, viewer);
  await expect(page).toHaveURL(/\/backoffice\/dashboard$/);
  await expect(page.getByRole('heading', { name: t('bo.dashboard.title'), level: 1 })).toBeVisible();
  const channels = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: t('bo.dashboard.channel') }) });
  await expect(channels).toBeVisible();
  const truemoney = t('bo.dashboard.channels.truemoney');
  const before = await channelRow(page, truemoney);

  const member = await createMember(request);
  await depositTrueMoney(request, member, 50);
  await page.reload();
  await expect.poll(async () => (await channelRow(page, truemoney)).count).toBe(before.count + 1);
  expect((await channelRow(page, truemoney)).sum).toBeCloseTo(before.sum + 50, 2);

  await expect(page.getByRole('img', { name: t('bo.dashboard.chartTitle') })).toBeVisible();
  const queues = page.getByRole('region', { name: t('bo.dashboard.queues') });
  await expect(queues.getByRole('link', { name: new RegExp(t('bo.dashboard.queue.withdrawalsPending')) })).toHaveAttribute('href', '/backoffice/withdrawals');

  // Seven days: the range is the URL, one bar group per day.
  await page.getByRole('button', { name: t('bo.dashboard.preset.7d') }).click();
  await expect(page).toHaveURL(/[?&]range=7d/);
  await expect(page.getByRole('button', { name: t('bo.dashboard.preset.7d') })).toHaveAttribute('aria-pressed', 'true');
  await expectAccessible(page, 'dashboard');
  await screenshot(page, { path: 'test-results/screens/backoffice-dashboard-th.png', fullPage: true });
});


/** The value of the dashboard's figure named `label` (its <dt>), e.g. "1,250.00 ฿". */
function figure(page: Page, label: string) {
  return page.getByRole('term').filter({ hasText: new RegExp(`^${label.replace(/[()]/g, '\\$&')}$`) }).locator('xpath=following-sibling::dd[1]');
}

/** The line under a figure that compares it with the period before. */
function versus(page: Page, label: string) {
  return page.getByRole('term').filter({ hasText: new RegExp(`^${label.replace(/[()]/g, '\\$&')}$`) }).locator('xpath=following-sibling::dd[contains(@class, "bo-metric-change")]');
}

const ddmmyyyy = (day: Date) => `${String(day.getDate()).padStart(2, '0')}/${String(day.getMonth() + 1).padStart(2, '0')}/${day.getFullYear()}`;

test('a goodwill credit is apart from deposits and the net, and each figure is compared with the day before', async ({ page, request, t }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const manager = await enrolledStaff(request, 'manager');
  await openBackOffice(page, t, manager);
  await expect(page).toHaveURL(/\/backoffice\/dashboard$/);
  const deposits = figure(page, t('bo.dashboard.deposits'));
  const net = figure(page, t('bo.dashboard.net'));
  const goodwill = figure(page, t('bo.dashboard.goodwill'));
  await expect(deposits).toHaveText(/฿$/);
  const before = { deposits: number(await deposits.textContent()), net: number(await net.textContent()), goodwill: number(await goodwill.textContent()) };

  // A manager's goodwill credit of 250 baht to a member.
  const member = await createMember(request);
  const login = await request.post('/api/login', { headers: HEADERS, data: { username: member.phone, password: member.password } });
  const { token } = (await login.json()) as { token: string };
  const profile = (await (await request.get('/api/account/profile', { headers: { ...HEADERS, Authorization: `Bearer ${token}` } })).json()) as { profile: { _id: number } };
  const credited = await request.post(`/api/backoffice/members/${profile.profile._id}/adjustments`, {
    headers: { Authorization: `Bearer ${manager.token}`, 'Idempotency-Key': `e2e-goodwill-${member.phone}` },
    data: { direction: 'credit', amount: 250, reason: 'goodwill, e2e' },
  });
  expect(credited.status(), await credited.text()).toBe(201);
  await page.reload();
  await expect.poll(async () => number(await goodwill.textContent())).toBeCloseTo(before.goodwill + 250, 2);
  await expect(goodwill).toHaveText(/฿$/);
  expect(number(await deposits.textContent())).toBeCloseTo(before.deposits, 2);
  expect(number(await net.textContent())).toBeCloseTo(before.net, 2);
  await expect(page.getByText(t('bo.dashboard.goodwillNote'))).toBeVisible();

  // Today against yesterday; yesterday against the day before: days on the operator's clock
  // (Asia/Bangkok, UTC+7, no daylight saving), not the test machine's, which is a day behind
  // from 17:00 UTC.
  const bangkok = new Date(Date.now() + 7 * 3600_000);
  const operatorDay = (back: number) =>
    new Date(bangkok.getUTCFullYear(), bangkok.getUTCMonth(), bangkok.getUTCDate() - back);
  const today = operatorDay(0);
  const yesterday = operatorDay(1);
  const dayBefore = operatorDay(2);
  await expect(versus(page, t('bo.dashboard.goodwill'))).toContainText(ddmmyyyy(yesterday));
  // The test's backend started today: nothing yesterday, so the move is the whole figure.
  await expect(versus(page, t('bo.dashboard.goodwill'))).toContainText(`+${(await goodwill.textContent()) ?? ''}`);
  await expectAccessible(page, 'dashboard, goodwill and comparison');
  await screenshot(page, { path: 'test-results/screens/backoffice-dashboard-versus-th.png', fullPage: true });
  await page.getByRole('button', { name: t('bo.dashboard.preset.yesterday') }).click();
  await expect(page).toHaveURL(/[?&]range=yesterday/);
  await expect(page.getByText(t('bo.dashboard.versusNote', { period: ddmmyyyy(dayBefore) }))).toBeVisible();

  // A custom range typed as Thai staff write days (DD/MM/YYYY): a month-first date is refused.
  const custom = page.getByRole('form', { name: t('bo.dashboard.custom') });
  const weekAgo = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 6);
  await custom.getByLabel(t('bo.dashboard.from'), { exact: true }).fill('12/31/2026');
  await custom.getByRole('button', { name: t('bo.dashboard.apply') }).click();
  await expect(custom.getByText(t('bo.audit.badDay'))).toBeVisible();
  await custom.getByLabel(t('bo.dashboard.from'), { exact: true }).fill(ddmmyyyy(weekAgo));
  await custom.getByLabel(t('bo.dashboard.to'), { exact: true }).fill(ddmmyyyy(today));
  await custom.getByRole('button', { name: t('bo.dashboard.apply') }).click();
  const iso = (day: Date) => ddmmyyyy(day).split('/').reverse().join('-');
  await expect(page).toHaveURL(new RegExp(`range=custom&from=${iso(weekAgo)}&to=${iso(today)}`));
  await expect(custom.getByLabel(t('bo.dashboard.from'), { exact: true })).toHaveValue(ddmmyyyy(weekAgo));
  const weekBeforeFrom = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 13);
  const weekBeforeTo = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 7);
  const period = t('bo.dashboard.between', { from: ddmmyyyy(weekBeforeFrom), to: ddmmyyyy(weekBeforeTo) });
  await expect(page.getByText(t('bo.dashboard.versusNote', { period }))).toBeVisible();
});
