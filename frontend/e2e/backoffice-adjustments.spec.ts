/**
 * Manual adjustments with four eyes, in English at 1366×768: manager A asks for a credit above
 * the approval limit for a member registered through the API; it waits and the balance does not
 * move; A has no approve button on it and the API refuses A's own approval; manager B, in a second
 * browser, approves it (seeing why it waited) and the balance grows once. Every screen passes axe; screenshots go to
 * test-results/screens/.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { createMember, type Member } from './support/backend';
import { expect, expectAccessible, expectNoCspViolations, test, tr, watchCsp, screenshot } from './support/fixtures';
import { enrolledStaff, openBackOffice } from './support/staff';

const HEADERS = { 'X-Pao-Client': 'wallet' };
const shot = (name: string) => `test-results/screens/backoffice-adjustments-${name}-en.png`;
const AMOUNT = 6_000; // above the default manualAdjustmentApprovalAbove (5,000 baht)

async function memberWallet(request: APIRequestContext, member: Member): Promise<{ id: string; amount: number }> {
  const login = await request.post('/api/login', { headers: HEADERS, data: { username: member.phone, password: member.password } });
  const { token } = (await login.json()) as { token: string };
  const wallet = await request.get('/api/wallet', { headers: { ...HEADERS, Authorization: `Bearer ${token}` } });
  const body = (await wallet.json()) as { profile: { _id: string }; wallet: { amount: number } };
  return { id: body.profile._id, amount: body.wallet.amount };
}

async function staffToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('pao-staff-token'));
  expect(token).toBeTruthy();
  return token ?? '';
}

test.use({ appLocale: 'en' });

test('a large manual credit waits for a second manager, then moves the money once', async ({ page, request, browser, t, baseURL }) => {
  const member = await createMember(request);
  const { id: memberId, amount: before } = await memberWallet(request, member);
  expect(before).toBe(0);
  const managerA = await enrolledStaff(request, 'manager');
  const managerB = await enrolledStaff(request, 'manager');

  // Manager A asks for the credit, from the member page's link.
  await openBackOffice(page, t, managerA);
  const nav = page.getByRole('navigation', { name: t('bo.nav.label') });
  await expect(nav.getByRole('link', { name: t('bo.nav.adjustments') })).toBeVisible();
  await page.goto(`/backoffice/adjustments/new?member=${memberId}`);
  await expect(page.getByRole('heading', { name: t('bo.adjustments.newTitle') })).toBeVisible();
  await expect(page.getByLabel(t('bo.adjustments.memberId'), { exact: true })).toHaveValue(memberId);
  await expect(page.getByRole('radio', { name: t('bo.adjustments.directionChoice.credit') })).toBeChecked();
  await page.getByLabel(t('bo.adjustments.amount'), { exact: true }).fill(String(AMOUNT));
  await page.getByLabel(t('bo.adjustments.reason'), { exact: true }).fill('Goodwill for ticket 4711');
  await expect(page.getByText(t('bo.adjustments.willWait'))).toBeVisible();
  await expectAccessible(page, 'new adjustment');
  await screenshot(page, { path: shot('new') });
  await page.getByRole('button', { name: t('bo.adjustments.submitForApproval') }).click();
  await expect(page.getByRole('status').filter({ hasText: t('bo.adjustments.doneWaiting') })).toBeVisible();
  // It says why it waits: its amount is above the limit for one adjustment.
  await expect(page.getByRole('list', { name: t('bo.adjustments.whyLabel') })).toHaveText(t('bo.adjustments.why.amount'));
  expect((await memberWallet(request, member)).amount).toBe(before);

  // A sees it awaiting approval, with no button to approve it: it is A's own.
  await page.getByRole('status').getByRole('link', { name: t('bo.adjustments.backToList') }).click();
  await expect(page).toHaveURL(/\/backoffice\/adjustments\?status=AWAITING_APPROVAL$/);
  const table = page.getByRole('table', { name: t('bo.adjustments.title') });
  const rowOfA = table.getByRole('row').filter({ hasText: member.phone });
  await expect(rowOfA.getByText(t('bo.adjustments.statuses.AWAITING_APPROVAL'), { exact: true })).toBeVisible();
  await expect(rowOfA.getByText(t('bo.adjustments.yours'))).toBeVisible();
  await expect(rowOfA.getByRole('button', { name: t('bo.adjustments.approve') })).toHaveCount(0);
  await expectAccessible(page, 'adjustments (requester)');
  await screenshot(page, { path: shot('list-requester') });

  // Nor does the API let A approve it.
  const tokenA = await staffToken(page);
  const listed = await request.get('/api/backoffice/adjustments?status=AWAITING_APPROVAL', { headers: { Authorization: `Bearer ${tokenA}` } });
  const item = ((await listed.json()) as { items: { id: number; memberPhone: string }[] }).items.find((i) => i.memberPhone === member.phone);
  expect(item).toBeTruthy();
  const own = await request.post(`/api/backoffice/adjustments/${item?.id}/approve`, { headers: { Authorization: `Bearer ${tokenA}` } });
  expect(own.status()).toBe(403);
  expect(((await own.json()) as { message: string }).message).toBe('ADJUSTMENT_OWN_APPROVAL');
  expect((await memberWallet(request, member)).amount).toBe(before);

  // Manager B, in a browser of their own, approves it.
  const contextB = await browser.newContext({ baseURL, viewport: { width: 1366, height: 768 } });
  const violations = await watchCsp(contextB);
  const pageB = await contextB.newPage();
  await pageB.addInitScript(() => localStorage.setItem('locale', 'en'));
  await openBackOffice(pageB, (key, vars) => tr('en', key, vars), managerB);
  await pageB.goto('/backoffice/adjustments?status=AWAITING_APPROVAL');
  const rowOfB = pageB.getByRole('table', { name: t('bo.adjustments.title') }).getByRole('row').filter({ hasText: member.phone });
  await expect(rowOfB.getByRole('button', { name: t('bo.adjustments.approve') })).toBeVisible();
  await expectAccessible(pageB, 'adjustments (approver)');
  await screenshot(pageB, { path: shot('list-approver') });
  await rowOfB.getByRole('button', { name: t('bo.adjustments.approve') }).click();
  const dialog = pageB.getByRole('dialog', { name: t('bo.adjustments.approveTitle') });
  await expect(dialog.getByText(member.phone)).toBeVisible();
  // The approver sees why it waited for them.
  await expect(dialog.getByRole('list', { name: t('bo.adjustments.whyLabel') })).toHaveText(t('bo.adjustments.why.amount'));
  await expectAccessible(pageB, 'approve dialog');
  await screenshot(pageB, { path: shot('approve-dialog') });
  await dialog.getByRole('button', { name: t('bo.adjustments.approve') }).click();
  await expect(dialog).toBeHidden();
  await expect(rowOfB).toHaveCount(0); // no longer awaiting approval

  await pageB.goto('/backoffice/adjustments');
  const posted = pageB.getByRole('table', { name: t('bo.adjustments.title') }).getByRole('row').filter({ hasText: member.phone });
  await expect(posted.getByText(t('bo.adjustments.statuses.POSTED'), { exact: true })).toBeVisible();
  await expect(posted.getByText(t('bo.adjustments.decidedBy', { name: managerB.name }))).toBeVisible();
  await screenshot(pageB, { path: shot('list-posted') });
  expect((await memberWallet(request, member)).amount).toBe(before + AMOUNT);

  // A second approval (a late click, a retry) moves nothing.
  const again = await request.post(`/api/backoffice/adjustments/${item?.id}/approve`, { headers: { Authorization: `Bearer ${await staffToken(pageB)}` } });
  expect(again.status()).toBe(409);
  expect((await memberWallet(request, member)).amount).toBe(before + AMOUNT);
  await contextB.close();
  expectNoCspViolations(violations);
});
