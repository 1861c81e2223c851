/**
 * The back office's members at 1366×768, in Thai: a manager finds a member registered through
 * the API, opens the member's page, reveals the full bank account number, suspends the member
 * with a reason (the member's login is then refused) and reactivates them; a viewer opens the
 * same page, sees no action, and the server refuses a direct call (403). A member's statement and
 * withdrawals read in words (Deposit, Succeeded, Staff adjustment → Wallet, Rejected), and the
 * cashier who decided is named, not "staff:<login>".
 * Every screen passes axe. Screenshots go to test-results/screens/.
 */
import { expect, expectAccessible, test, screenshot } from './support/fixtures';
import { createMember, paoOps } from './support/backend';
import { enrolledStaff, openBackOffice } from './support/staff';

const PLAYER = { 'X-Pao-Client': 'wallet' };
const shot = (name: string) => `test-results/screens/backoffice-members-${name}-th.png`;

test.use({ appLocale: 'th' });

test('a manager finds, suspends and reactivates a member; a viewer cannot act', async ({ page, request, t }) => {
  const member = await createMember(request);
  const manager = await enrolledStaff(request, 'manager');
  await openBackOffice(page, t, manager);

  // Search by phone: the search is the URL.
  const nav = page.getByRole('navigation', { name: t('bo.nav.label') });
  await nav.getByRole('link', { name: t('bo.nav.members') }).click();
  await expect(page).toHaveURL(/\/backoffice\/members$/);
  await expect(page.getByRole('heading', { name: t('bo.members.title'), level: 1 })).toBeVisible();
  await page.getByLabel(t('bo.members.searchLabel')).fill(member.phone);
  await page.getByRole('button', { name: t('bo.members.search'), exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${member.phone}`));
  const table = page.getByRole('table', { name: t('bo.members.title') });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expectAccessible(page, 'members search');
  await screenshot(page, { path: shot('search') });
  await table.getByRole('link', { name: member.name }).click();

  // The member's page: masked number, full one on request.
  await expect(page).toHaveURL(/\/backoffice\/members\/\d+$/);
  const memberUrl = page.url();
  const memberId = memberUrl.split('/').at(-1);
  await expect(page.getByRole('heading', { name: new RegExp(member.name), level: 1 })).toBeVisible();
  await expect(page.getByText(/SCB x{6}\d{4}/).first()).toBeVisible();
  await page.getByRole('button', { name: t('bo.members.reveal') }).click();
  await expect(page.locator('.bo-member-secret code')).toHaveText(/^\d{10}$/);

  // Suspend, with a reason: the member can no longer log in.
  const actions = page.getByRole('group', { name: t('bo.members.actions') });
  await actions.getByRole('button', { name: t('bo.members.suspend') }).click();
  const suspending = page.getByRole('dialog', { name: t('bo.members.suspend') });
  await suspending.getByRole('button', { name: t('bo.members.suspend') }).click();
  await expect(suspending.getByRole('alert')).toBeVisible(); // no reason: refused
  await suspending.getByLabel(t('bo.members.reasonLabel')).fill('ตรวจสอบการทุจริต');
  await suspending.getByRole('button', { name: t('bo.members.suspend') }).click();
  await expect(suspending).toBeHidden();
  await expect(page.getByText(t('bo.members.statusSuspended'), { exact: true }).first()).toBeVisible();
  const refused = await request.post('/api/login', { data: { username: member.phone, password: member.password } });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({ message: 'INACTIVE_USER' });
  await page.getByRole('tab', { name: t('bo.members.tab.logins') }).click();
  await expect(page).toHaveURL(/[?&]tab=logins/);
  await expectAccessible(page, 'member page');
  await screenshot(page, { path: shot('page'), fullPage: true });

  // Reactivate: the member logs in again.
  await actions.getByRole('button', { name: t('bo.members.reactivate') }).click();
  const reactivating = page.getByRole('dialog', { name: t('bo.members.reactivate') });
  await reactivating.getByLabel(t('bo.members.reasonLabel')).fill('ตรวจสอบแล้ว');
  await reactivating.getByRole('button', { name: t('bo.members.reactivate') }).click();
  await expect(reactivating).toBeHidden();
  await expect(page.getByText(t('bo.members.statusActive'), { exact: true }).first()).toBeVisible();
  const back = await request.post('/api/login', { data: { username: member.phone, password: member.password } });
  expect(back.status()).toBe(200);

  // A viewer: the same page without any action; the server refuses the call anyway.
  await page.evaluate(() => localStorage.removeItem('pao-staff-token'));
  const viewer = await enrolledStaff(request, 'viewer');
  await openBackOffice(page, t, viewer);
  await page.goto(memberUrl);
  await expect(page.getByRole('heading', { name: new RegExp(member.name), level: 1 })).toBeVisible();
  await expect(page.getByRole('group', { name: t('bo.members.actions') })).toHaveCount(0);
  await expect(page.getByRole('button', { name: t('bo.members.suspend') })).toHaveCount(0);
  await expect(page.getByRole('button', { name: t('bo.members.reveal') })).toHaveCount(0);
  await expectAccessible(page, 'member page (viewer)');
  await screenshot(page, { path: shot('viewer') });
  const token = await page.evaluate(() => localStorage.getItem('pao-staff-token'));
  const direct = await request.post(`/api/backoffice/members/${memberId}/suspend`, {
    data: { reason: 'direct' },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(direct.status()).toBe(403);
  expect(await direct.json()).toEqual({ message: 'STAFF_FORBIDDEN' });
});

test("a member's history reads in words, and who decided is named", async ({ page, request, t }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  // A deposit taken by hand, then a withdrawal that a cashier rejects.
  const member = await createMember(request);
  paoOps('deposit', member.phone, '1000', '--note', 'e2e member history');
  const login = await request.post('/api/login', { headers: PLAYER, data: { username: member.phone, password: member.password } });
  const { token } = (await login.json()) as { token: string };
  const asked = await request.post('/api/wallet/withdraw', {
    headers: { ...PLAYER, Authorization: `Bearer ${token}`, 'Idempotency-Key': `e2e-history-${member.phone}` },
    data: { amount: 200 },
  });
  expect(asked.status(), await asked.text()).toBe(200);
  const { withdrawalId } = (await asked.json()) as { withdrawalId: number };
  const cashier = await enrolledStaff(request, 'cashier');
  const asCashier = { Authorization: `Bearer ${cashier.token}` };
  expect((await request.post(`/api/backoffice/withdrawals/${withdrawalId}/claim`, { headers: asCashier })).status()).toBe(200);
  const rejected = await request.post(`/api/backoffice/withdrawals/${withdrawalId}/reject`, { headers: asCashier, data: { reason: 'e2e: wrong account' } });
  expect(rejected.status(), await rejected.text()).toBe(200);
  const profile = (await (await request.get('/api/account/profile', { headers: { ...PLAYER, Authorization: `Bearer ${token}` } })).json()) as { profile: { _id: number } };
  // The member sets a deposit limit and takes a time-out (player protection).
  const asMember = { ...PLAYER, Authorization: `Bearer ${token}` };
  expect((await request.put('/api/protection/limits', { headers: asMember, data: { day: 2000 } })).status()).toBe(200);
  expect((await request.post('/api/protection/exclusion', { headers: asMember, data: { kind: 'timeout', days: 7 } })).status()).toBe(200);

  const manager = await enrolledStaff(request, 'manager');
  await openBackOffice(page, t, manager, `/backoffice/members/${profile.profile._id}?tab=statement`);
  const statement = page.getByRole('table', { name: t('bo.members.tab.statement') });
  const credit = statement.getByRole('row').filter({ hasText: `${t('bo.labels.party.MANUAL')} → ${t('bo.labels.party.WALLET')}` });
  await expect(credit.getByRole('cell', { name: t('bo.labels.statementType.deposit'), exact: true })).toBeVisible();
  await expect(credit.getByRole('cell', { name: t('bo.labels.status.SUCCESS'), exact: true })).toBeVisible();
  await expect(statement).not.toContainText('MANUAL');
  await screenshot(page, { path: shot('statement') });

  await page.getByRole('tab', { name: t('bo.members.tab.withdrawals') }).click();
  const withdrawals = page.getByRole('table', { name: t('bo.members.tab.withdrawals') });
  const row = withdrawals.getByRole('row').filter({ hasText: 'e2e: wrong account' });
  await expect(row.getByRole('cell', { name: t('bo.labels.status.REJECTED'), exact: true })).toBeVisible();
  // Decided by the cashier's name, not "staff:<login>".
  await expect(row.getByRole('cell', { name: cashier.name, exact: true })).toBeVisible();
  await expect(withdrawals).not.toContainText('staff:');
  await expectAccessible(page, 'member history in words');
  await screenshot(page, { path: shot('withdrawals') });

  // Player protection: closed with its end, the limit in force, the time-out and the change.
  await page.getByRole('tab', { name: t('bo.members.tab.protection') }).click();
  await expect(page.getByRole('status').filter({ hasText: t('bo.protection.excluded', { until: '' }).split(' ').slice(0, 2).join(' ') })).toBeVisible();
  const limits = page.getByRole('table', { name: t('bo.protection.limits') });
  await expect(limits.getByRole('row').filter({ hasText: t('bo.protection.periodName.day') })).toContainText('2,000.00');
  await expect(page.getByRole('table', { name: t('bo.protection.exclusions') })).toContainText(t('bo.protection.kindName.timeout'));
  await expectAccessible(page, 'member protection');
  await screenshot(page, { path: shot('protection') });
});
