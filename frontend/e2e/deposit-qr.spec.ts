/**
 * QR deposits end to end: the member creates a QR in the deposit modal, copies its text, pays
 * it at the sandbox bank (another tab, acting as the member's bank), and the wallet is
 * credited — for KBANK (PromptPay, the bank notifies Pao) and for the WW gateway (the sandbox
 * gateway calls Pao back).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { createMember, type Member } from './support/backend';
import { expect, expectAccessible, test, screenshot } from './support/fixtures';
import { openHome } from './support/flows';
import { payQrAtSandboxBank } from './support/sandbox-bank';

const HEADERS = { 'X-Pao-Client': 'wallet' };
type T = (key: string, vars?: Record<string, string | number>) => string;

async function walletAmount(request: APIRequestContext, member: Member): Promise<number> {
  const login = await request.post('/api/login', {
    headers: HEADERS,
    data: { username: member.phone, password: member.password },
  });
  const { token } = (await login.json()) as { token: string };
  const wallet = await request.get('/api/wallet', {
    headers: { ...HEADERS, Authorization: `Bearer ${token}` },
  });
  return ((await wallet.json()) as { wallet: { amount: number } }).wallet.amount;
}

/** The gateway order id a bank app reads from the QR: reference label 62/05 of the payload. */
function orderIdOf(payload: string): string {
  const fields = (text: string) => {
    const out: Record<string, string> = {};
    for (let i = 0; i + 4 <= text.length; ) {
      const length = Number(text.slice(i + 2, i + 4));
      out[text.slice(i, i + 2)] = text.slice(i + 4, i + 4 + length);
      i += 4 + length;
    }
    return out;
  };
  return fields(fields(payload)['62'] ?? '')['05'] ?? '';
}

async function openQrTab(page: Page, t: T, name: string) {
  await page.getByRole('button', { name: t('home.deposit') }).click();
  const deposit = page.getByRole('dialog', { name: t('deposit.title') });
  await deposit.getByRole('tab', { name: t('deposit.qrTab', { name }), exact: true }).click();
  return deposit;
}

async function createQr(page: Page, t: T, name: string, amount: string) {
  const deposit = await openQrTab(page, t, name);
  await deposit.getByRole('button', { name: amount, exact: true }).click();
  await expect(deposit.getByLabel(t('deposit.qr.amount'))).toHaveValue(String(Number(amount)));
  await deposit.getByRole('button', { name: t('deposit.qr.create') }).click();
  await expect(deposit.getByRole('img', { name: /./ })).toBeVisible();
  await expect(deposit.getByRole('timer')).toContainText(/\d\d:\d\d/);
  const text = deposit.getByRole('status', { name: t('deposit.qr.text') });
  const payload = ((await text.textContent()) ?? '').trim();
  expect(payload).toMatch(/^000201010212/);
  // KBANK may add satang so that the amount is unique: the member pays what is shown.
  const shown = (await deposit.locator('.deposit-qr-amount strong').textContent()) ?? '';
  const exact = /[\d,]+\.\d\d/.exec(shown)?.[0] ?? '';
  return { deposit, payload, exact };
}

test('KBANK QR: create in the modal, pay at the sandbox bank, wallet credited @desktop', async ({
  page,
  context,
  request,
  t,
  appLocale,
}) => {
  const member = await createMember(request);
  await openHome(page, t, member);
  const kbank = appLocale === 'en' ? 'Kasikornbank' : 'ธนาคารกสิกรไทย';
  const { deposit, payload, exact } = await createQr(page, t, kbank, '100.00');
  expect(exact).toMatch(/^100\.\d\d$/);
  await expectAccessible(page, 'deposit QR');
  await screenshot(page, { path: `test-results/screens/deposit-qr-${test.info().project.name}.png` });

  // The member's bank app, in another tab: paste the QR text and pay.
  await payQrAtSandboxBank(context, payload);

  // The open QR learns it was paid (it polls its status) and turns into the success.
  await expect(deposit.getByText(t('deposit.qr.paidTitle'))).toBeVisible();
  await deposit.getByRole('button', { name: t('common.ok'), exact: true }).click();
  await expect(deposit).toBeHidden();
  await expect(page.locator('.balance-amount')).toContainText(exact);
  expect(await walletAmount(request, member)).toBe(Number(exact));
});

test('WW gateway QR: the sandbox gateway calls Pao back, wallet credited', async ({
  page,
  context,
  request,
  t,
}) => {
  const member = await createMember(request);
  await openHome(page, t, member);
  const { deposit, payload } = await createQr(page, t, 'WW Pay', '200.00');

  const bank = await context.newPage();
  await bank.goto('/sandbox/bank');
  await bank.getByLabel('Gateway code').fill('WW');
  await bank.getByLabel('Order id').fill(orderIdOf(payload));
  await bank.getByRole('button', { name: 'Pay order', exact: true }).click();
  await expect(bank.locator('#gateway-out')).toContainText('Order paid.');
  await bank.close();

  await expect.poll(() => walletAmount(request, member)).toBe(200);
  await expect(deposit.getByText(t('deposit.qr.paidTitle'))).toBeVisible();
  await deposit.getByRole('button', { name: t('common.ok'), exact: true }).click();
  await expect(page.locator('.balance-amount')).toContainText('200.00');
});

test('cancelling a QR hides it; a below-minimum gateway amount cannot be created', async ({
  page,
  request,
  t,
}) => {
  const member = await createMember(request);
  await openHome(page, t, member);
  const { deposit } = await createQr(page, t, 'WW Pay', '100.00');
  await deposit.getByRole('button', { name: t('deposit.qr.cancel') }).click();
  await expect(deposit.getByRole('img', { name: /./ })).toBeHidden();
  await deposit.getByLabel(t('deposit.qr.amount')).fill('99');
  await expect(deposit.getByRole('button', { name: t('deposit.qr.create') })).toBeDisabled();
  await expectAccessible(page, 'deposit QR form');
  await screenshot(page, { path: `test-results/screens/deposit-qr-form-${test.info().project.name}.png` });
  await deposit.getByLabel(t('deposit.qr.amount')).fill('100');
  await expect(deposit.getByRole('button', { name: t('deposit.qr.create') })).toBeEnabled();
});
