/**
 * Members who hit limits, at 1366×768 (th): a member with a daily deposit limit of 50 sends a
 * TrueMoney gift link of 75.50 (its amount is known only once redeemed: the money has already
 * left, so it is credited over the limit and flagged), then asks for a QR and is refused
 * (recorded). A manager opens Reports → "Limits hit" and finds the member's row (one refusal,
 * one flagged credit), exports it as CSV, then the member's Protection tab shows the flag and
 * both rows. axe passes.
 */
import { readFile } from 'node:fs/promises';
import { createMember } from './support/backend';
import { expect, expectAccessible, test, screenshot } from './support/fixtures';
import { enrolledStaff, openBackOffice } from './support/staff';

const PLAYER = { 'X-Pao-Client': 'wallet' };

test.use({ appLocale: 'th' });

test('a refusal and a payment credited over the limit are reported and flagged', async ({ page, request, t }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const member = await createMember(request);
  const login = await request.post('/api/login', { headers: PLAYER, data: { username: member.phone, password: member.password } });
  const { token } = (await login.json()) as { token: string };
  const asMember = { ...PLAYER, Authorization: `Bearer ${token}` };
  expect((await request.put('/api/protection/limits', { headers: asMember, data: { day: 50 } })).status()).toBe(200);
  const minted = await request.post('/sandbox/truemoney/vouchers', { data: { amount: 75.5 } });
  const { link } = (await minted.json()) as { link: string };
  const sent = await request.post('/api/wallet/truelink', { headers: asMember, data: { link } });
  expect(sent.status(), await sent.text()).toBe(200);
  const refused = await request.post('/api/qrcode/KBANK', { headers: asMember, data: { amount: 10 } });
  expect((await refused.json()) as unknown).toMatchObject({ message: 'DEPOSIT_LIMIT_REACHED' });
  const profile = (await (await request.get('/api/account/profile', { headers: asMember })).json()) as { profile: { _id: number } };
  const memberId = profile.profile._id;

  const manager = await enrolledStaff(request, 'manager');
  await openBackOffice(page, t, manager, '/backoffice/reports?report=protection');
  await expect(page.getByRole('tab', { name: t('bo.reports.tab.protection') })).toHaveAttribute('aria-selected', 'true');
  const table = page.getByRole('table', { name: t('bo.reports.table.hits') });
  const row = table.getByRole('row').filter({ hasText: member.name });
  await expect(row).toContainText(t('bo.protection.hitKind.deposit_limit'));
  await expect(row.getByRole('cell')).toHaveText([String(memberId), member.name, t('bo.protection.hitKind.deposit_limit'), '1', '1', '75.50', /\d{4}-\d\d-\d\d \d\d:\d\d/, /\d{4}-\d\d-\d\d \d\d:\d\d/]);
  await expectAccessible(page, 'limits hit report');
  await screenshot(page, { path: 'test-results/screens/backoffice-protection-report-th.png', fullPage: true });
  const csv = page.waitForEvent('download');
  await page.getByRole('button', { name: `${t('bo.reports.export')}: ${t('bo.reports.table.hits')}` }).click();
  const lines = (await readFile(await (await csv).path(), 'utf8')).trim().split(/\r?\n/);
  expect(lines[0]).toBe('member,name,limit,refusals,flagged,flagged_sum,first_at,last_at');
  expect(lines.some((line) => line.startsWith(`${memberId},${member.name},deposit_limit,1,1,75.50,`))).toBe(true);

  await page.goto(`/backoffice/members/${memberId}?tab=protection`);
  await page.getByRole('tab', { name: t('bo.members.tab.protection') }).click();
  await expect(page.getByRole('status').filter({ hasText: t('bo.protection.flagged', { count: 1 }) })).toBeVisible();
  const hits = page.getByRole('table', { name: t('bo.protection.hits') });
  await expect(hits.getByRole('row').filter({ hasText: t('bo.protection.outcome.credited') })).toContainText('75.50');
  await expect(hits.getByRole('row').filter({ hasText: t('bo.protection.outcome.refused') })).toContainText('10.00');
  await expectAccessible(page, 'member protection tab');
  await screenshot(page, { path: 'test-results/screens/backoffice-protection-tab-th.png', fullPage: true });
});
