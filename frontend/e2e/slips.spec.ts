/**
 * Slip deposits and payouts, end to end: the member's bank is the sandbox bank page (another
 * tab); the slip it prints is uploaded in the app and credits the wallet; an operator-approved
 * withdrawal is paid through the sandbox bank and a rejected one is refunded.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createMember } from './support/backend';
import { expect, expectAccessible, test, screenshot } from './support/fixtures';
import { acceptAgreementIfShown, loginViaUi } from './support/flows';
import { apiToken, operatorAccount, sandboxSlip, walletOf } from './support/slips';

const PAO = fileURLToPath(new URL('../../.venv/bin/pao', import.meta.url));
/** `pao ops …` against the test server's database, reaching its sandbox bank over HTTP. */
function ops(...args: string[]): string {
  return execFileSync(PAO, ['ops', ...args], {
    env: {
      ...process.env,
      PAO_DATA_DIR: process.env.PAO_E2E_DATA_DIR,
      PAO_PORT: process.env.PAO_E2E_PORT ?? '',
      PAO_HOST: '127.0.0.1',
      PAO_SANDBOX: '1',
    },
    encoding: 'utf8',
  });
}

test('transfer at the sandbox bank, upload the slip, wallet credited @en', async ({
  page,
  context,
  request,
  t,
  appLocale,
}) => {
  const member = await createMember(request);
  const token = await apiToken(request, member);
  const { bankAccount } = await walletOf(request, token);
  const operator = await operatorAccount(request, token);

  await loginViaUi(page, t, member.phone, member.password);
  await expect(page).toHaveURL(/\/user\/home$/);
  await acceptAgreementIfShown(page, t);

  // The member's bank, in another tab.
  const bank = await context.newPage();
  await bank.goto('/sandbox/bank');
  await bank.getByLabel('Your bank', { exact: true }).selectOption(bankAccount.bankCode);
  await bank.getByLabel('Your account number').fill(bankAccount.bankAccountNo);
  await bank.getByLabel('Your account name').fill(bankAccount.bankAccountName);
  await bank.getByLabel('Receiving bank').selectOption(operator.bankCode);
  await bank.getByLabel('Receiving account number').fill(operator.bankAccountNo);
  await bank.getByLabel('Amount to transfer').fill('250.50');
  await expectAccessible(bank, 'sandbox bank');
  await bank.getByRole('button', { name: 'Transfer', exact: true }).click();
  const slipLink = bank.getByRole('link', { name: 'Download slip' });
  await expect(slipLink).toBeVisible();
  const download = bank.waitForEvent('download');
  await slipLink.click();
  const slipPath = test.info().outputPath((await download).suggestedFilename());
  await (await download).saveAs(slipPath);
  await bank.close();

  // Back in the app: deposit modal → the operator's bank tab → slip upload.
  await page.getByRole('button', { name: t('home.deposit') }).click();
  const deposit = page.getByRole('dialog', { name: t('deposit.title') });
  const tabName = appLocale === 'en' ? operator.bank.nameEN : operator.bank.nameTH;
  await deposit.getByRole('tab', { name: tabName, exact: true }).click();
  await expect(deposit.getByText(operator.bankAccountNo.slice(-4))).toBeVisible();
  await deposit.getByLabel(t('slips.pick')).setInputFiles(slipPath);
  await expectAccessible(page, 'slip upload');
  await deposit.getByRole('button', { name: t('slips.upload'), exact: true }).click();
  await expect(deposit.getByText(t('slips.credited', { amount: '250.50' }))).toBeVisible();
  await screenshot(page, { path: `test-results/screens/slips-deposit-${test.info().project.name}.png` });
  await deposit.getByRole('button', { name: t('common.close') }).first().click();

  // The statement's slip table shows it as a success with the amount.
  await page.goto('/user/statement');
  await page.getByRole('button', { name: t('slips.open') }).click();
  const dialog = page.getByRole('dialog', { name: t('slips.tableTitle') });
  await expect(dialog).toBeVisible();
  const row = dialog.getByRole('row').filter({ hasText: '250.50' });
  await expect(row).toBeVisible();
  await expect(row.getByText(t('statement.status.SUCCESS'))).toBeVisible();
  await screenshot(page, { path: `test-results/screens/slips-${test.info().project.name}.png` });
  await row.getByRole('button', { name: t('slips.view') }).click();
  await expect(page.getByRole('img', { name: /./ })).toBeVisible();
  await page.keyboard.press('Escape');

  expect((await walletOf(request, token)).wallet.amount).toBe(250.5);
});

test('the same slip twice is refused with its reason', async ({ page, request, t }) => {
  const member = await createMember(request);
  const token = await apiToken(request, member);
  const image = await sandboxSlip(request, member, 100);

  await loginViaUi(page, t, member.phone, member.password);
  await expect(page).toHaveURL(/\/user\/home$/);
  await acceptAgreementIfShown(page, t);
  await page.goto('/user/statement');
  await page.getByRole('button', { name: t('slips.open') }).click();
  const dialog = page.getByRole('dialog', { name: t('slips.tableTitle') });
  await dialog.getByRole('button', { name: t('slips.uploadOpen') }).click();
  const file = { name: 'slip.png', mimeType: 'image/png', buffer: image };
  await dialog.getByLabel(t('slips.pick')).setInputFiles(file);
  await dialog.getByRole('button', { name: t('slips.upload'), exact: true }).click();
  await expect(dialog.getByText(t('slips.credited', { amount: '100.00' }))).toBeVisible();
  await dialog.getByLabel(t('slips.pick')).setInputFiles(file);
  await dialog.getByRole('button', { name: t('slips.upload'), exact: true }).click();
  const refused = t('slips.refused', { reason: t('slipReason.SLIP_REFNO_DUPLICATED') });
  await expect(dialog.getByText(refused)).toBeVisible();
  await expect(dialog.getByText(t('slipReason.SLIP_REFNO_DUPLICATED')).last()).toBeVisible();
  expect((await walletOf(request, token)).wallet.amount).toBe(100);
});

test('an approved withdrawal is paid by the bank, a rejected one refunded', async ({
  page,
  request,
  t,
}) => {
  const member = await createMember(request);
  ops('deposit', member.phone, '1000', '--note', 'e2e funds');
  const token = await apiToken(request, member);
  const withdraw = async (amount: number) => {
    const response = await request.post('/api/wallet/withdrawAll', {
      headers: { 'X-Pao-Client': 'wallet', Authorization: `Bearer ${token}` },
      data: { amount },
    });
    expect(response.ok(), await response.text()).toBe(true);
    return ((await response.json()) as { withdrawalId: number }).withdrawalId;
  };
  const paid = await withdraw(300);
  const rejected = await withdraw(200);

  const approval = ops('withdrawals', 'approve', String(paid));
  expect(approval).toContain('paid by the bank');
  ops('withdrawals', 'reject', String(rejected), '--reason', 'name mismatch');
  expect((await walletOf(request, token)).wallet.amount).toBe(700);

  await loginViaUi(page, t, member.phone, member.password);
  await expect(page).toHaveURL(/\/user\/home$/);
  await acceptAgreementIfShown(page, t);
  await page.goto('/user/statement');
  const rows = page.getByRole('listitem').filter({ hasText: t('statement.types.withdraw') });
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: '300.00' }).getByText(t('statement.status.SUCCESS'))).toBeVisible();
  await expect(rows.filter({ hasText: '200.00' }).getByText(t('statement.status.FAILED'))).toBeVisible();
  await expectAccessible(page, 'statement with withdrawals');
});
