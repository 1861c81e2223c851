/**
 * The dashboard at 1366×768 (th): a viewer opens it after signing in; a member deposits with a
 * sandbox TrueMoney gift link; on reload today's TrueMoney row and the deposit total include
 * it, the chart by day is drawn, the queue counts link to their queues, and axe passes.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { createMember, type Member } from './support/backend';
import { expect, expectAccessible, test } from './support/fixtures';
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

const number = (text: string | null) => Number((text ?? '').replace(/,/g, ''));

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
  await page.screenshot({ path: 'test-results/screens/backoffice-dashboard-th.png', fullPage: true });
});
