/**
 * Deposit review and receiving accounts at 1366×768 (th). A member (through the API, not the
 * player UI) uploads the slip of a sandbox transfer sent from an account that is not theirs: the
 * bank finds it but the sender does not match (NOT_MATCH), so it waits for a look. A cashier
 * opens Deposits, finds it in the review tab, sees the image and approves the amount the bank
 * found: the member's balance grows once, and a second approval is refused. Then an owner adds a
 * receiving account on the Accounts screen, members are offered it, the owner disables it and
 * they are not. Both screens pass axe; screenshots go to test-results/screens/.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { createMember, randomDigits, type Member } from './support/backend';
import { expect, expectAccessible, test, screenshot } from './support/fixtures';
import { enrolledStaff, openBackOffice } from './support/staff';

const HEADERS = { 'X-Pao-Client': 'wallet' };
const AMOUNT = 345.5;

type Lookup = { banks: { bankType: string; mode: string; bankCode: string; bankAccountNo: string }[] };

async function memberToken(request: APIRequestContext, member: Member): Promise<string> {
  const login = await request.post('/api/login', { headers: HEADERS, data: { username: member.phone, password: member.password } });
  expect(login.ok(), await login.text()).toBe(true);
  return ((await login.json()) as { token: string }).token;
}

const asMember = (token: string) => ({ ...HEADERS, Authorization: `Bearer ${token}` });

async function balance(request: APIRequestContext, token: string): Promise<number> {
  const wallet = await request.get('/api/wallet', { headers: asMember(token) });
  return ((await wallet.json()) as { wallet: { amount: number } }).wallet.amount;
}

async function depositLookup(request: APIRequestContext, token: string): Promise<Lookup> {
  const response = await request.get('/api/lookup/deposit', { headers: asMember(token) });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as Lookup;
}

/** The member uploads the slip of a real transfer to the operator, sent from a stranger's account. */
async function uploadStrangersSlip(request: APIRequestContext, token: string): Promise<number> {
  const operator = (await depositLookup(request, token)).banks.find((b) => b.bankType !== 'PAYMENT' && b.mode !== 'AUTO' && b.bankAccountNo);
  expect(operator, 'the demo data has an operator bank account').toBeTruthy();
  const transfer = await request.post('/sandbox/bank/api/transfers', {
    data: { fromBank: 'KBANK', fromAccount: `999${randomDigits(7)}`, toBank: operator!.bankCode, toAccount: operator!.bankAccountNo, amount: AMOUNT },
  });
  expect(transfer.status(), await transfer.text()).toBe(201);
  const { slipUrl } = (await transfer.json()) as { slipUrl: string };
  const image = await (await request.get(slipUrl)).body();
  const uploaded = await request.post('/api/wallet/slip', {
    headers: { ...asMember(token), 'Idempotency-Key': crypto.randomUUID() },
    multipart: { file: { name: 'slip.png', mimeType: 'image/png', buffer: image } },
  });
  const body = (await uploaded.json()) as { status: string; reason: string | null; slip: { _id: string } };
  expect([body.status, body.reason], JSON.stringify(body)).toEqual(['FAILED', 'NOT_MATCH']);
  return Number(body.slip._id);
}

async function staffToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('pao-staff-token'));
  expect(token).toBeTruthy();
  return token ?? '';
}

test.use({ appLocale: 'th' });

test('a cashier approves a slip that needs a look, once', async ({ page, request, t }) => {
  const member = await createMember(request);
  const token = await memberToken(request, member);
  const slipId = await uploadStrangersSlip(request, token);
  expect(await balance(request, token)).toBe(0);
  const cashier = await enrolledStaff(request, 'cashier');

  await openBackOffice(page, t, cashier);
  await page.getByRole('navigation', { name: t('bo.nav.label') }).getByRole('link', { name: t('bo.nav.deposits') }).click();
  await expect(page.getByRole('heading', { name: t('bo.deposits.title'), level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: t('bo.deposits.tab.slips') })).toHaveAttribute('aria-selected', 'true');
  const table = page.getByRole('table', { name: t('bo.deposits.tab.slips') });
  const row = table.getByRole('row').filter({ hasText: member.phone });
  await expect(row).toHaveCount(1);
  await expect(row.getByText(t('bo.deposits.reasonName.NOT_MATCH'))).toBeVisible();
  await expect(row.getByText(t('bo.deposits.lookup.FOUND'))).toBeVisible();
  await expectAccessible(page, 'deposits');
  await screenshot(page, { path: 'test-results/screens/backoffice-deposits-th.png' });

  // The slip: its image (fetched with the staff token), what the bank found, the amount.
  await row.getByRole('button', { name: t('bo.deposits.open', { id: slipId }) }).click();
  const dialog = page.getByRole('dialog', { name: t('bo.deposits.slipTitle', { id: slipId }) });
  const image = dialog.getByRole('img', { name: t('bo.deposits.imageAlt', { id: slipId }) });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const amount = dialog.getByLabel(t('bo.deposits.approveAmount'), { exact: true });
  await expect(amount).toHaveValue(String(AMOUNT));
  await expectAccessible(page, 'slip review dialog');
  await screenshot(page, { path: 'test-results/screens/backoffice-deposits-dialog-th.png' });
  await dialog.getByRole('button', { name: t('bo.deposits.approve'), exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
  await expect.poll(() => balance(request, token)).toBe(AMOUNT);

  // A second approval (another cashier's late click) is refused and moves nothing.
  const again = await request.post(`/api/backoffice/deposits/slips/${slipId}/approve`, {
    headers: { Authorization: `Bearer ${await staffToken(page)}`, 'Idempotency-Key': crypto.randomUUID() },
    data: { amount: AMOUNT },
  });
  expect(again.status()).toBe(409);
  expect(((await again.json()) as { message: string }).message).toBe('DEPOSIT_ALREADY_SETTLED');
  expect(await balance(request, token)).toBe(AMOUNT);
});

test('an owner adds a receiving account and disables it', async ({ page, request, t }) => {
  const member = await createMember(request);
  const token = await memberToken(request, member);
  const accountNo = `123${randomDigits(7)}`;
  const offered = async () => (await depositLookup(request, token)).banks.some((b) => b.bankAccountNo === accountNo);
  const owner = await enrolledStaff(request, 'owner');

  await openBackOffice(page, t, owner);
  await page.getByRole('navigation', { name: t('bo.nav.label') }).getByRole('link', { name: t('bo.nav.accounts') }).click();
  await expect(page.getByRole('heading', { name: t('bo.accounts.title'), level: 1 })).toBeVisible();
  await page.getByRole('button', { name: t('bo.accounts.add') }).click();
  const dialog = page.getByRole('dialog', { name: t('bo.accounts.addTitle') });
  await dialog.getByLabel(t('bo.accounts.kind'), { exact: true }).selectOption('BANK');
  await dialog.getByLabel(t('bo.accounts.code'), { exact: true }).fill('SCB');
  await dialog.getByLabel(t('bo.accounts.accountName'), { exact: true }).fill('PAO E2E RECEIVING');
  await dialog.getByLabel(t('bo.accounts.accountNo'), { exact: true }).fill(accountNo);
  await expectAccessible(page, 'add account dialog');
  await dialog.getByRole('button', { name: t('common.save') }).click();
  await expect(dialog).toBeHidden();

  const table = page.getByRole('table', { name: t('bo.accounts.title') });
  const row = table.getByRole('row').filter({ hasText: accountNo });
  await expect(row.getByText(t('bo.accounts.active'), { exact: true })).toBeVisible();
  await expect.poll(offered).toBe(true);
  await expectAccessible(page, 'accounts');
  await screenshot(page, { path: 'test-results/screens/backoffice-accounts-th.png' });

  await row.getByRole('button', { name: t('bo.accounts.disable') }).click();
  const confirm = page.getByRole('dialog', { name: t('bo.accounts.disable') });
  await confirm.getByRole('button', { name: t('bo.accounts.disable') }).click();
  await expect(confirm).toBeHidden();
  await expect(row.getByText(t('bo.accounts.disabled'), { exact: true })).toBeVisible();
  await expect.poll(offered).toBe(false);
  await screenshot(page, { path: 'test-results/screens/backoffice-accounts-disabled-th.png' });
});

/** A bank transfer that matches no QR (receiver unknown), paid from `payerAccount` at SCB: the
 * bank's notification, signed with the sandbox's well-known webhook secret. */
async function unmatchedTransfer(request: APIRequestContext, payerAccount: string, amount: number): Promise<string> {
  const transferId = `E2E-UNMATCHED-${randomDigits(10)}`;
  const body = JSON.stringify({
    transferId,
    amount,
    currency: 'THB',
    receiverProxy: '0999999999',
    paidAt: new Date().toISOString(),
    payerBank: '014',
    payerAccount,
    payerName: 'E2E PAYER',
  });
  const { createHmac } = await import('node:crypto');
  const signature = createHmac('sha256', 'sandbox-bank-webhook-secret').update(body).digest('hex');
  const sent = await request.post('/api/payments/bank/notify', {
    headers: { 'Content-Type': 'application/json', 'X-Bank-Signature': signature },
    data: body,
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  expect(((await sent.json()) as { outcome: string }).outcome).toBe('UNMATCHED');
  return transferId;
}

test('matching an unmatched payment shows the payer and refuses a blind match', async ({ page, request, t }) => {
  const payer = await createMember(request);
  const payerToken = await memberToken(request, payer);
  const { bankAccount } = (await (await request.get('/api/wallet', { headers: asMember(payerToken) })).json()) as {
    bankAccount: { bankAccountNo: string };
  };
  const other = await createMember(request);
  const otherToken = await memberToken(request, other);
  const transferId = await unmatchedTransfer(request, bankAccount.bankAccountNo, 77.25);
  const cashier = await enrolledStaff(request, 'cashier');

  await openBackOffice(page, t, cashier);
  await page.getByRole('navigation', { name: t('bo.nav.label') }).getByRole('link', { name: t('bo.nav.deposits') }).click();
  await page.getByRole('tab', { name: t('bo.deposits.tab.unmatched') }).click();
  const row = page.getByRole('table', { name: t('bo.deposits.tab.unmatched') }).getByRole('row').filter({ hasText: transferId });
  await expect(row.getByText('E2E PAYER')).toBeVisible();
  await row.getByRole('button', { name: t('bo.deposits.match') }).click();
  const dialog = page.getByRole('dialog');
  // The payer as the bank said, and the member whose registered account paid, suggested.
  await expect(dialog.getByText('E2E PAYER')).toBeVisible();
  const suggestion = dialog.getByRole('region', { name: t('bo.deposits.suggestion') });
  await expect(suggestion.getByText(payer.phone, { exact: false })).toBeVisible();

  // The cashier searches for someone else and chooses them: a warning that needs a confirmation.
  await dialog.getByLabel(t('bo.deposits.searchMember'), { exact: true }).fill(other.phone);
  const results = dialog.getByRole('list', { name: t('bo.deposits.results') });
  await results.getByRole('listitem').filter({ hasText: other.phone }).getByRole('button', { name: t('bo.deposits.choose') }).click();
  await expect(dialog.getByTestId('match-chosen')).toContainText(other.name);
  await expect(dialog.getByTestId('match-chosen')).toContainText('SCB');
  await expect(dialog.getByText(t('bo.deposits.otherOwner'))).toBeVisible();
  await dialog.getByRole('button', { name: t('bo.deposits.match'), exact: true }).click();
  await expect(dialog.getByText(t('bo.deposits.noteRequired'))).toBeVisible();
  await dialog.getByLabel(t('bo.deposits.matchNote'), { exact: true }).fill('paid from his brother’s account, per chat');
  await expectAccessible(page, 'match dialog');
  await screenshot(page, { path: 'test-results/screens/backoffice-deposits-match-th.png' });
  // Not confirmed yet: nothing is sent.
  await dialog.getByRole('button', { name: t('bo.deposits.match'), exact: true }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(t('bo.deposits.confirmOtherOwner')).check();
  await dialog.getByRole('button', { name: t('bo.deposits.match'), exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
  await expect.poll(() => balance(request, otherToken)).toBe(77.25);
  expect(await balance(request, payerToken)).toBe(0);
});
