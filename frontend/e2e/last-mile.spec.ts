/**
 * Issue 17, "the last mile", what a player sees (phone-th only: no project tag):
 *  2. the how-to videos play (real files) and a missing one says so; the LINE QR is an image;
 *  3. an unmet promotion and a 1-baht TrueMoney gift say what went wrong for that action;
 *  4. a shown QR learns it was paid; cancelling it then says it was paid;
 *  5. a slip upload's outcome is on screen at 360×740, where the member is looking.
 * (1, a reopened site, is in terminated.spec.ts: it closes the whole site.)
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { createMember, randomDigits, type Member } from './support/backend';
import { expect, test, screenshot } from './support/fixtures';
import { openHome } from './support/flows';

const HEADERS = { 'X-Pao-Client': 'wallet' };

async function tokenOf(request: APIRequestContext, member: Member): Promise<string> {
  const login = await request.post('/api/login', {
    headers: HEADERS,
    data: { username: member.phone, password: member.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  return ((await login.json()) as { token: string }).token;
}

async function member(request: APIRequestContext, path: string, token: string) {
  const answer = await request.get(path, { headers: { ...HEADERS, Authorization: `Bearer ${token}` } });
  expect(answer.ok(), await answer.text()).toBe(true);
  return (await answer.json()) as Record<string, unknown>;
}

async function shot(page: Page, name: string) {
  await screenshot(page, { path: `test-results/screens/last-mile-${name}-${test.info().project.name}.png` });
}

test('how-to videos play, a missing one says so, the LINE QR loads', async ({ page, t }) => {
  await page.goto('/howto');
  await page.getByRole('button', { name: t('howto.videos.wallet') }).click();
  const player = page.getByRole('dialog', { name: t('howto.videos.wallet') });
  const video = player.locator('video');
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => (v.readyState >= 1 ? v.duration : 0)))
    .toBeGreaterThan(1);
  await shot(page, 'howto');
  await player.getByRole('button', { name: t('common.close') }).first().click();

  // A file that is not there (the server answers 404) is said to be unavailable.
  await page.route('**/media/howto/end_bonus.webm', (route) => route.fulfill({ status: 404, json: { message: 'NO_DATA' } }));
  await page.getByRole('button', { name: t('howto.videos.end_bonus') }).click();
  await expect(page.getByRole('alert').filter({ hasText: t('howto.failed') })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.goto('/contact');
  const qr = page.getByRole('img', { name: t('contact.qrAlt') });
  await expect(qr).toHaveAttribute('src', '/media/contact/line-qr.png');
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
  await shot(page, 'contact');
});

test('an unmet promotion and a 1-baht gift say what went wrong', async ({ page, request, t }) => {
  const player = await createMember(request);
  await openHome(page, t, player);

  // PAO2026 needs a qualifying deposit this member has not made.
  await page.goto('/user/bonus');
  await page.getByRole('textbox', { name: t('promotions.promotion.code') }).fill('PAO2026');
  await page.getByRole('button', { name: t('promotions.promotion.search') }).click();
  const modal = page.getByRole('dialog', { name: t('promotions.promotion.modalTitle', { code: 'PAO2026' }) });
  await modal.getByRole('button', { name: t('promotions.bonus.receive') }).click();
  await expect(page.getByRole('alertdialog').getByText(t('errorAction.promotionActivate.BONUS_CONDITION'))).toBeVisible();
  await shot(page, 'promotion-condition');
  await page.getByRole('alertdialog').getByRole('button', { name: t('common.ok'), exact: true }).click();

  const minted = await request.post('/sandbox/truemoney/vouchers', { data: { amount: 1 } });
  const { link } = (await minted.json()) as { link: string };
  await page.goto('/user/home');
  await page.getByRole('button', { name: t('home.deposit') }).click();
  const deposit = page.getByRole('dialog', { name: t('deposit.title') });
  await deposit.getByRole('tab', { name: t('deposit.truemoney.tab'), exact: true }).click();
  await deposit.getByLabel(t('deposit.truemoney.link')).fill(link);
  await deposit.getByRole('button', { name: t('deposit.truemoney.send') }).click();
  await expect(page.getByText(t('errorAction.truemoney.TRANSFER_MINIMUM', { minimum: 2 }))).toBeVisible();
  await shot(page, 'truemoney-minimum');
});

test('a shown QR learns it was paid; cancelling it then says it was paid', async ({ page, request, t, appLocale }) => {
  const player = await createMember(request);
  await openHome(page, t, player);
  await page.getByRole('button', { name: t('home.deposit') }).click();
  const deposit = page.getByRole('dialog', { name: t('deposit.title') });
  await deposit.getByRole('tab', { name: t('deposit.qrTab', { name: appLocale === 'en' ? 'Kasikornbank' : 'ธนาคารกสิกรไทย' }), exact: true }).click();
  await deposit.getByRole('button', { name: '100.00', exact: true }).click();
  await deposit.getByRole('button', { name: t('deposit.qr.create') }).click();
  const payload = ((await deposit.getByRole('status', { name: t('deposit.qr.text') }).textContent()) ?? '').trim();
  expect(payload).toMatch(/^000201/);

  // Hold the status polling back, so the member can still press cancel on the paid QR.
  await page.route('**/api/qrcode/status/**', (route) => route.abort());
  const paid = await request.post('/sandbox/bank/api/qr-payments', {
    data: { fromBank: 'SCB', fromAccount: randomDigits(10), payload },
  });
  expect(paid.ok(), await paid.text()).toBe(true);
  await deposit.getByRole('button', { name: t('deposit.qr.cancel') }).click();
  await expect(page.getByText(t('errorAction.qrCancel.QR_FAIL'))).toBeVisible();
  await shot(page, 'qr-cancel-paid');

  // Polling again: the QR turns into the success by itself.
  await page.unroute('**/api/qrcode/status/**');
  await expect(deposit.getByText(t('deposit.qr.paidTitle'))).toBeVisible({ timeout: 15_000 });
  await expect(deposit.getByRole('img', { name: /./ })).toBeHidden();
  await shot(page, 'qr-paid');
  const wallet = await member(request, '/api/wallet', await tokenOf(request, player));
  expect((wallet.wallet as { amount: number }).amount).toBeGreaterThanOrEqual(100);
});

test('a slip upload shows its outcome on screen at 360×740', async ({ page, request, t, appLocale }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const player = await createMember(request);
  const token = await tokenOf(request, player);
  const { bankAccount } = (await member(request, '/api/wallet', token)) as {
    bankAccount: { bankCode: string; bankAccountNo: string };
  };
  const lookup = (await member(request, '/api/lookup/deposit', token)) as {
    banks: { bankCode: string; bankType: string; mode: string; bankAccountNo: string; bank: { nameTH: string; nameEN: string } }[];
  };
  const operator = lookup.banks.find((b) => b.bankType !== 'PAYMENT' && b.mode !== 'AUTO' && b.bankAccountNo)!;
  const transfer = await request.post('/sandbox/bank/api/transfers', {
    data: {
      fromBank: bankAccount.bankCode,
      fromAccount: bankAccount.bankAccountNo,
      toBank: operator.bankCode,
      toAccount: operator.bankAccountNo,
      amount: 120,
    },
  });
  const { slipUrl } = (await transfer.json()) as { slipUrl: string };
  const image = await (await request.get(slipUrl)).body();

  await openHome(page, t, player);
  await page.getByRole('button', { name: t('home.deposit') }).click();
  const deposit = page.getByRole('dialog', { name: t('deposit.title') });
  await deposit.getByRole('tab', { name: appLocale === 'en' ? operator.bank.nameEN : operator.bank.nameTH, exact: true }).click();
  await deposit.getByLabel(t('slips.pick')).setInputFiles({ name: 'slip.png', mimeType: 'image/png', buffer: image });
  const upload = deposit.getByRole('button', { name: t('slips.upload'), exact: true });
  await upload.scrollIntoViewIfNeeded();
  await upload.click();
  const outcome = deposit.getByText(t('slips.credited', { amount: '120.00' }));
  await expect(outcome).toBeInViewport();
  await expect(outcome).toBeFocused();
  await shot(page, 'slip-outcome');
});
