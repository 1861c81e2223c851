/**
 * Reports at 1366×768 (th): a manager reads the dashboard's deposit and withdrawal totals of
 * today, a member deposits with a TrueMoney gift link, the manager opens Reports, exports the
 * daily figures as CSV, and the CSV's row of today says what the dashboard says (read again
 * after the deposit). The other tabs render their tables and charts (the deposit requests with
 * the voucher's row, named, not coded: "TrueMoney · Credited", and their CSV, which keeps the
 * codes); axe passes.
 */
import { readFile } from 'node:fs/promises';
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

/** The dashboard's total deposits (the channels table's footer) and paid withdrawals. */
async function dashboardTotals(page: Page, t: (key: string) => string): Promise<{ deposits: number; withdrawals: number }> {
  await page.goto('/backoffice/dashboard');
  const channels = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: t('bo.dashboard.channel') }) });
  const total = channels.getByRole('row', { name: new RegExp(`^${t('bo.dashboard.total')}`) });
  await expect(total).toBeVisible();
  const withdrawals = page.locator('dt').getByText(t('bo.dashboard.withdrawals'), { exact: true }).locator('xpath=following-sibling::dd[1]');
  return { deposits: number(await total.getByRole('cell').nth(1).textContent()), withdrawals: number(await withdrawals.textContent()) };
}

test.use({ appLocale: 'th' });

test('a manager exports the daily figures and they match the dashboard', async ({ page, request, t }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const manager = await enrolledStaff(request, 'manager');
  await openBackOffice(page, t, manager);
  await depositTrueMoney(request, await createMember(request), 75.5);
  const board = await dashboardTotals(page, t);
  expect(board.deposits).toBeGreaterThanOrEqual(75.5);

  await page.getByRole('link', { name: t('bo.nav.reports') }).click();
  await expect(page.getByRole('heading', { name: t('bo.reports.title'), level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: t('bo.reports.tab.daily') })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('img', { name: t('bo.dashboard.chartTitle') })).toBeVisible();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: `${t('bo.reports.export')}: ${t('bo.reports.table.days')}` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^pao-daily-days-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  const [header, today, ...rest] = (await readFile(await download.path(), 'utf8')).trim().split(/\r?\n/).map((line) => line.split(','));
  expect(rest).toEqual([]);
  if (!header || !today) throw new Error('the CSV has no row of today');
  const cell = (key: string) => Number(today[header.indexOf(key)]);
  expect(cell('deposits')).toBeCloseTo(board.deposits, 2);
  expect(cell('withdrawals')).toBeCloseTo(board.withdrawals, 2);
  expect(cell('net')).toBeCloseTo(board.deposits - board.withdrawals, 2);

  // The other reports: deposits by channel has its chart and TrueMoney's row; members list
  // today's registrations; the range is the URL.
  await page.getByRole('tab', { name: t('bo.reports.tab.payments') }).click();
  await expect(page).toHaveURL(/[?&]report=payments/);
  await expect(page.getByRole('img', { name: t('bo.reports.chart.channels') })).toBeVisible();
  const truemoney = t('bo.dashboard.channels.truemoney');
  await expect(page.getByRole('table', { name: t('bo.reports.table.channels') }).getByRole('row', { name: new RegExp(`^${truemoney}`) })).toBeVisible();
  // The deposit requests: the voucher sent is a credited TrueMoney request, with its time to
  // credit; the table exports as CSV with its own columns.
  const requests = page.getByRole('table', { name: t('bo.reports.table.deposits') });
  for (const key of ['channel', 'bank', 'status', 'review', 'count', 'sum']) {
    await expect(requests.getByRole('columnheader', { name: t(`bo.reports.col.${key}`), exact: true })).toBeVisible();
  }
  const credited = requests.getByRole('row', { name: new RegExp(`^${truemoney}.*${t('bo.labels.status.CREDITED')}`) });
  await expect(credited).toBeVisible();
  await expect(credited).not.toContainText('CREDITED');
  await expect(page.getByRole('table', { name: t('bo.reports.table.deposit_time') }).getByRole('row', { name: new RegExp(`^${truemoney}`) })).toBeVisible();
  const requestsCsv = page.waitForEvent('download');
  await page.getByRole('button', { name: `${t('bo.reports.export')}: ${t('bo.reports.table.deposits')}` }).click();
  const lines = (await readFile(await (await requestsCsv).path(), 'utf8')).trim().split(/\r?\n/);
  expect(lines[0]).toBe('channel,bank,status,review,count,sum');
  expect(lines.some((line) => /^truemoney,,CREDITED,,\d+,\d+\.\d\d$/.test(line))).toBe(true);
  await screenshot(page, { path: 'test-results/screens/backoffice-reports-payments-th.png', fullPage: true });
  await page.getByRole('button', { name: t('bo.dashboard.preset.30d') }).click();
  await expect(page).toHaveURL(/[?&]range=30d/);
  await page.getByRole('tab', { name: t('bo.reports.tab.members') }).click();
  await expect(page.getByRole('table', { name: t('bo.reports.table.registrations') })).toBeVisible();
  await expectAccessible(page, 'reports');
  await screenshot(page, { path: 'test-results/screens/backoffice-reports-th.png', fullPage: true });
});
