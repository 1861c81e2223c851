/**
 * The cashiers' withdrawal queue at 1366×768, in Thai: a cashier has the queue open when a
 * member (registered and funded through the API and `pao ops deposit`) asks for a withdrawal;
 * the row appears without a reload (socket.io's `withdrawals:changed` batch) and is announced.
 * The cashier opens it, claims it and approves it through the sandbox bank: it becomes paid,
 * and the member's statement (player API) shows the withdrawal as a success. The queue passes axe; screenshots go to test-results/screens/.
 */
import type { APIRequestContext } from '@playwright/test';
import { createMember, paoOps, type Member } from './support/backend';
import { expect, expectAccessible, test } from './support/fixtures';
import { enrolledStaff, openBackOffice } from './support/staff';

const shot = (name: string) => `test-results/screens/backoffice-withdrawals-${name}-th.png`;
const PLAYER = { 'X-Pao-Client': 'wallet' };

async function memberToken(request: APIRequestContext, member: Member): Promise<string> {
  const r = await request.post('/api/login', { headers: PLAYER, data: { username: member.phone, password: member.password } });
  expect(r.status(), await r.text()).toBe(200);
  return ((await r.json()) as { token: string }).token;
}

test.use({ appLocale: 'th' });

test('a cashier sees a new withdrawal live, claims it and pays it through the bank', async ({ page, request, t }) => {
  const cashier = await enrolledStaff(request, 'cashier');
  const member = await createMember(request);
  paoOps('deposit', member.phone, '1000', '--note', 'e2e withdrawals');
  const token = await memberToken(request, member);

  await openBackOffice(page, t, cashier);
  const nav = page.getByRole('navigation', { name: t('bo.nav.label') });
  await nav.getByRole('link', { name: t('bo.nav.withdrawals') }).click();
  await expect(page).toHaveURL(/\/backoffice\/withdrawals$/);
  await expect(page.getByText(t('bo.withdrawals.live'), { exact: true })).toBeVisible();
  const table = page.getByRole('table', { name: t('bo.withdrawals.title') });
  await expect(table.getByText(member.phone)).toHaveCount(0);

  // The member asks; the row appears in the open queue without a reload.
  const asked = await request.post('/api/wallet/withdraw', {
    headers: { ...PLAYER, Authorization: `Bearer ${token}`, 'Idempotency-Key': `e2e-${member.phone}` },
    data: { amount: 300 },
  });
  expect(asked.status(), await asked.text()).toBe(200);
  const { withdrawalId } = (await asked.json()) as { withdrawalId: number };
  const row = table.getByRole('row').filter({ hasText: member.phone });
  await expect(row).toBeVisible();
  // Screen readers hear it once (the live region), in the batch's one line.
  await expect(page.getByText(t('bo.withdrawals.arrived', { id: withdrawalId, amount: '300.00 THB' }), { exact: true })).toBeAttached();
  await expect(row.getByText(t('bo.withdrawals.status.PENDING'), { exact: true })).toBeVisible();

  // Open the detail beside the queue; claim it.
  await row.getByRole('button', { name: t('bo.withdrawals.openOf', { id: withdrawalId }) }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]open=${withdrawalId}`));
  const panel = page.getByRole('complementary', { name: t('bo.withdrawals.detailTitle', { id: withdrawalId }) });
  await expect(panel.getByText(t('bo.withdrawals.depositsSummary', { count: 1, total: '1,000.00 THB' }))).toBeVisible();
  await panel.getByRole('button', { name: t('bo.withdrawals.claim'), exact: true }).click();
  await expect(panel.getByRole('button', { name: t('bo.withdrawals.approvePayout') })).toBeVisible();
  await expect(row.getByText(cashier.login, { exact: true })).toBeVisible();
  await expectAccessible(page, 'withdrawal queue with the detail open');
  await page.screenshot({ path: shot('detail') });

  // Approve through the sandbox bank, confirmed in a dialog.
  await panel.getByRole('button', { name: t('bo.withdrawals.approvePayout') }).click();
  const dialog = page.getByRole('dialog', { name: t('bo.withdrawals.approvePayout') });
  await dialog.getByRole('button', { name: t('bo.withdrawals.approvePayout') }).click();
  await expect(dialog).toBeHidden();
  // Paid: it leaves the pending queue; under "paid" it is there, and so says the panel.
  await expect(row).toHaveCount(0);
  await expect(panel.getByText(t('bo.withdrawals.status.PAID'), { exact: true })).toBeVisible();
  await page.getByLabel(t('bo.withdrawals.statusLabel'), { exact: true }).selectOption('PAID');
  await expect(page).toHaveURL(/[?&]status=PAID/);
  await expect(table.getByRole('row').filter({ hasText: member.phone })).toBeVisible();
  await page.screenshot({ path: shot('paid') });

  // The member's statement says the withdrawal succeeded.
  const statement = await request.post('/api/statement', {
    headers: { ...PLAYER, Authorization: `Bearer ${token}` },
    data: { page: 1, limit: 10 },
  });
  const lines = ((await statement.json()) as { statements: { statementType: string; status: string; amount: number }[] }).statements;
  expect(lines.filter((l) => l.statementType === 'withdraw').map((l) => [l.status, l.amount])).toEqual([['SUCCESS', 300]]);
});
