/**
 * A bank QR deposit with the server speaking SCB (PAO_BANK_API=scb, ADR 0029): the QR is SCB's
 * bill payment QR (tag 30, the order in ref1, the amount asked, no extra satang); the member
 * pays it at the sandbox bank, which sends SCB's payment confirmation; Pao credits it only once
 * SCB's inquiry confirms it, and the open QR turns into the success.
 */
import type { APIRequestContext } from '@playwright/test';
import { createMember, type Member } from './support/backend';
import { expect, test } from './support/fixtures';
import { openHome } from './support/flows';
import { payQrAtSandboxBank } from './support/sandbox-bank';

const HEADERS = { 'X-Pao-Client': 'wallet' };
// Thai QR tag 30's application id: a bill payment to a biller id.
const BILL_PAYMENT_AID = 'A000000677010112';

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

/** The top-level EMV fields of a QR text (tag → value). */
function fieldsOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 4 <= text.length; ) {
    const length = Number(text.slice(i + 2, i + 4));
    out[text.slice(i, i + 2)] = text.slice(i + 4, i + 4 + length);
    i += 4 + length;
  }
  return out;
}

test('SCB QR: created by SCB, paid at the sandbox bank, confirmed and credited', async ({
  page,
  context,
  request,
  t,
}) => {
  const member = await createMember(request);
  await openHome(page, t, member);
  await page.getByRole('button', { name: t('home.deposit') }).click();
  const deposit = page.getByRole('dialog', { name: t('deposit.title') });
  await deposit.getByRole('tab', { name: t('deposit.qrTab', { name: 'ธนาคารกสิกรไทย' }), exact: true }).click();
  await deposit.getByRole('button', { name: '500.00', exact: true }).click();
  await deposit.getByRole('button', { name: t('deposit.qr.create') }).click();
  await expect(deposit.getByRole('img', { name: /./ })).toBeVisible();
  const payload = ((await deposit.getByRole('status', { name: t('deposit.qr.text') }).textContent()) ?? '').trim();

  // SCB's QR: a bill payment naming the order (ref1), for exactly the amount asked.
  const billPayment = fieldsOf(fieldsOf(payload)['30'] ?? '');
  expect(billPayment['00']).toBe(BILL_PAYMENT_AID);
  expect(billPayment['02']).toMatch(/^Q[0-9A-F]{18}$/);
  expect(fieldsOf(payload)['54']).toBe('500.00');
  await expect(deposit.locator('.deposit-qr-amount strong')).toContainText('500.00');

  await payQrAtSandboxBank(context, payload);

  await expect(deposit.getByText(t('deposit.qr.paidTitle'))).toBeVisible();
  await deposit.getByRole('button', { name: t('common.ok'), exact: true }).click();
  await expect(deposit).toBeHidden();
  await expect(page.locator('.balance-amount')).toContainText('500.00');
  expect(await walletAmount(request, member)).toBe(500);
});
