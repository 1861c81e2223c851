/**
 * The back office's members at 1366×768, in Thai: a manager finds a member registered through
 * the API, opens the member's page, reveals the full bank account number, suspends the member
 * with a reason (the member's login is then refused) and reactivates them; a viewer opens the
 * same page, sees no action, and the server refuses a direct call (403).
 * Every screen passes axe. Screenshots go to test-results/screens/.
 */
import { expect, expectAccessible, test } from './support/fixtures';
import { createMember } from './support/backend';
import { enrolledStaff, openBackOffice } from './support/staff';

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
  await page.screenshot({ path: shot('search') });
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
  await page.screenshot({ path: shot('page'), fullPage: true });

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
  await page.screenshot({ path: shot('viewer') });
  const token = await page.evaluate(() => localStorage.getItem('pao-staff-token'));
  const direct = await request.post(`/api/backoffice/members/${memberId}/suspend`, {
    data: { reason: 'direct' },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(direct.status()).toBe(403);
  expect(await direct.json()).toEqual({ message: 'STAFF_FORBIDDEN' });
});
