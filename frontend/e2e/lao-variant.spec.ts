/**
 * The Lao variant end to end (project phone-lao-variant: the same build, its backend started
 * with PAO_LAO_MODE=1): the app starts in Lao with no saved choice; a member registers with a
 * Lao number of free length and a LAK wallet at BCEL, deposits by Lao QR paid at the sandbox
 * bank, and sees the balance, the withdraw limits and the statement in kip (no decimals), the
 * withdraw amount named in kip, never baht; and withdraws 500,000 kip within kip's own limits
 * (ADR 0020), ten times baht's maximum read as kip; then spins the kip wheel with coins earned at
 * kip's rate and claims a prize paid in kip.
 */
import { paoOps, randomDigits, setRegisterOtp } from './support/backend';
import { expect, expectAccessible, LAO_BACKEND_LOCK, test, screenshot } from './support/fixtures';
import { acceptAgreementIfShown, expectHome, loginViaUi } from './support/flows';

const HEADERS = { 'X-Pao-Client': 'wallet' };
const BCEL = 'ທະນາຄານການຄ້າຕ່າງປະເທດລາວ';

// terminated.spec.ts closes this backend's site: never at the same time as this test.
test.describe.configure({ lock: LAO_BACKEND_LOCK });

test('register with a Lao number and a LAK wallet, deposit by Lao QR, balance in kip', async ({
  page,
  context,
  request,
  t,
}) => {
  await setRegisterOtp(request, false);
  // 9 digits: a Thai operator would refuse it (exactly 10), the Lao variant takes 8 to 13.
  const phone = `2055${randomDigits(5)}`;
  const name = `Souk ${phone.slice(-4)}`;
  const password = 'lao-pass1';

  // Lao by default: nothing saved, the server's document names the variant.
  await page.goto('/register');
  await expect(page.locator('html')).toHaveAttribute('lang', 'lo');
  await expect(page.getByRole('heading', { name: t('register.title') })).toBeVisible();
  await page.getByLabel(t('register.phone'), { exact: true }).fill(phone);
  await page.getByRole('button', { name: t('common.next') }).click();
  await expect(page.getByText(t('register.phoneLength'))).toHaveCount(0);

  await page.getByLabel(t('register.name'), { exact: true }).fill(name);
  await page.getByLabel(t('register.password'), { exact: true }).fill(password);
  await page.getByLabel(t('register.confirmPassword'), { exact: true }).fill(password);
  await page.getByRole('button', { name: t('common.next') }).click();

  // Step 4: Lao banks, no Thai "fastest bank" hint, the wallet's currency (LAK by default).
  const bank = page.getByLabel(t('register.bank'), { exact: true });
  await expect(bank).toBeVisible();
  await expect(page.getByText(t('register.fastestHint'))).toHaveCount(0);
  await expect(bank.locator('option').nth(1)).toHaveText(BCEL);
  await bank.selectOption('BCEL');
  await page.getByLabel(t('register.firstName'), { exact: true }).fill('souk');
  await page.getByLabel(t('register.lastName'), { exact: true }).fill('phommachanh');
  await page.getByLabel(t('register.accountNo'), { exact: true }).fill(randomDigits(13));
  const currency = page.getByLabel(t('register.currency'), { exact: true });
  await expect(currency).toHaveValue('LAK');
  await expect(currency.locator('option')).toHaveText([t('register.currencies.LAK'), t('register.currencies.BAHT')]);
  await expectAccessible(page, 'register step 4 (Lao variant)');
  await screenshot(page, { path: 'test-results/screens/lao-variant-register.png' });
  await page.getByRole('button', { name: t('register.submit') }).click();
  await expect(page.getByText(t('register.success')).first()).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 5000 });

  await loginViaUi(page, t, phone, password);
  await expectHome(page, t, name);
  await acceptAgreementIfShown(page, t);
  const balance = page.locator('.balance-amount');
  await expect(balance).toHaveText(new RegExp(`^0\\s*${t('common.currency.LAK')}$`));

  // Deposit by Lao QR at BCEL: kip-sized quick amounts, the QR in kip.
  await page.getByRole('button', { name: t('home.deposit') }).click();
  const deposit = page.getByRole('dialog', { name: t('deposit.title') });
  // Only ways in that credit kip: no Thai bank, gateway or TrueMoney tab for a kip wallet.
  await expect(deposit.getByRole('tab')).toHaveText([t('deposit.qrTab', { name: BCEL })]);
  await deposit.getByRole('tab', { name: t('deposit.qrTab', { name: BCEL }), exact: true }).click();
  await deposit.getByRole('button', { name: '50,000', exact: true }).click();
  await deposit.getByRole('button', { name: t('deposit.qr.create') }).click();
  await expect(deposit.locator('.deposit-qr-amount strong')).toHaveText(`50,000 ${t('common.currency.LAK')}`);
  const payload = ((await deposit.getByRole('status', { name: t('deposit.qr.text') }).textContent()) ?? '').trim();
  // EMVCo, dynamic; the Lao QR merchant tag 38 and kip (ISO 4217 418).
  expect(payload).toMatch(/^000201010212/);
  expect(payload).toContain('5303418');
  await expectAccessible(page, 'Lao QR');
  await screenshot(page, { path: 'test-results/screens/lao-variant-qr.png' });

  // The member's bank app (another Lao bank) pays the QR; the sandbox bank notifies Pao.
  const bankApp = await context.newPage();
  await bankApp.goto('/sandbox/bank');
  await bankApp.getByLabel('Your bank', { exact: true }).selectOption('LDB');
  await bankApp.getByLabel('Your account number').fill(randomDigits(13));
  await bankApp.getByLabel('QR payload').fill(payload);
  await bankApp.getByRole('button', { name: 'Pay QR', exact: true }).click();
  await expect(bankApp.locator('#qr-out')).toContainText('Operator notified: yes');
  await bankApp.close();

  // The open QR learns it was paid (it polls its status) and turns into the success.
  await expect(deposit.getByText(t('deposit.qr.paidTitle'))).toBeVisible();
  await deposit.getByRole('button', { name: t('common.ok'), exact: true }).click();
  await expect(deposit).toBeHidden();
  // Kip without decimals, named as kip.
  await expect(balance).toHaveText(new RegExp(`^50,000\\s*${t('common.currency.LAK')}$`));
  await screenshot(page, { path: 'test-results/screens/lao-variant-home.png' });

  // Every amount in kip, not only the balance: the withdraw limits and balance, and the
  // statement's row of the deposit (after a reload, which keeps the wallet's currency).
  const kip = '\\d{1,3}(?:,\\d{3})*';
  await page.getByRole('button', { name: t('home.withdraw') }).click();
  const withdraw = page.getByRole('dialog', { name: t('withdraw.title') });
  await expect(withdraw.getByText(t('withdraw.balance', { amount: '50,000' }), { exact: true })).toBeVisible();
  await expect(withdraw.getByText(new RegExp(`^${t('withdraw.limits', { min: kip, max: kip })}$`))).toBeVisible();
  // The amount is asked for in kip (ຈຳນວນເງິນ (ກີບ)); nothing on the screen says baht.
  await expect(withdraw.getByLabel(t('withdraw.amount', { unit: t('common.currency.LAK') }), { exact: true })).toBeVisible();
  await expect(withdraw).not.toContainText(t('common.currency.THB'), { useInnerText: true });
  await screenshot(page, { path: 'test-results/screens/lao-variant-withdraw.png' });
  await page.goto('/user/statement');
  await expect(page.locator('.statement-row .statement-amount').first()).toHaveText('+50,000');
  await screenshot(page, { path: 'test-results/screens/lao-variant-statement.png' });

  const login = await request.post('/api/login', { headers: HEADERS, data: { username: phone, password } });
  const { token } = (await login.json()) as { token: string };
  const wallet = await request.get('/api/wallet', { headers: { ...HEADERS, Authorization: `Bearer ${token}` } });
  expect(((await wallet.json()) as { wallet: unknown }).wallet).toEqual({ amount: 50000, currency: 'LAK' });

  // Kip has money rules of its own (ADR 0020), never the baht numbers read as kip: with
  // 1,050,000 kip the member sees kip's limits and withdraws 500,000 kip (baht's maximum is
  // 50,000).
  paoOps('deposit', phone, '1000000', '--note', 'e2e kip withdrawal');
  await page.goto('/user/home');
  await expect(balance).toHaveText(new RegExp(`^1,050,000\\s*${t('common.currency.LAK')}$`));
  await page.getByRole('button', { name: t('home.withdraw') }).click();
  await expect(withdraw.getByText(t('withdraw.limits', { min: '50,000', max: '20,000,000' }), { exact: true })).toBeVisible();
  await withdraw.getByLabel(t('withdraw.amount', { unit: t('common.currency.LAK') }), { exact: true }).fill('500000');
  await withdraw.getByRole('button', { name: t('withdraw.submit') }).click();
  const result = page.getByRole('alertdialog');
  await expect(result.getByText(t('withdraw.successText'))).toBeVisible();
  await screenshot(page, { path: 'test-results/screens/lao-variant-withdraw-kip.png' });
  await result.getByRole('button', { name: t('common.ok'), exact: true }).click();
  const after = await request.get('/api/wallet', { headers: { ...HEADERS, Authorization: `Bearer ${token}` } });
  expect(((await after.json()) as { wallet: unknown }).wallet).toEqual({ amount: 550000, currency: 'LAK' });

  // The kip wheel: coins earned at kip's own rate (50,000 kip a coin, not baht's 100), prizes
  // defined in kip and paid in kip. Spin until a credit coupon can be claimed, and claim it.
  // Reduced motion: the prize at once, not after a 4–5 s turn and a 1.6 s reveal per spin (the
  // motion is finish.spec.ts's; this test is about kip).
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/user/spin');
  // Its name says the coins left (a plural pair: the count changes as the member spins).
  const spinButton = page.getByRole('button', { name: new RegExp(`^${t('promotions.spin.spinButton', { count: 99 }).replace('99', '\\d+')}$`) });
  await expect(spinButton).toHaveAccessibleName(t('promotions.spin.spinButton', { count: 21 }));
  const claim = page.getByRole('button', { name: new RegExp(`^${t('promotions.spin.claim')}`) }).first();
  for (let i = 0; i < 21 && !(await claim.isVisible()); i += 1) {
    await spinButton.click();
    const spun = page.getByRole('dialog', { name: t('promotions.spin.resultTitle') });
    await expect(spun).toBeVisible({ timeout: 10_000 });
    await spun.getByRole('button', { name: t('common.ok'), exact: true }).click();
    await expect(spun).toBeHidden();
  }
  await claim.click();
  const confirm = page.getByRole('alertdialog', { name: t('promotions.spin.claimTitle') });
  // The coupon names its prize in kip, and the amount it pays is kip.
  await expect(confirm).toContainText(t('common.currency.LAK'));
  await expect(confirm).not.toContainText(t('common.currency.THB'), { useInnerText: true });
  await screenshot(page, { path: 'test-results/screens/lao-variant-wheel-claim.png' });
  await confirm.getByRole('button', { name: t('promotions.spin.claim') }).click();
  await expect(page.getByRole('alertdialog', { name: t('common.success') })).toBeVisible();
  const prized = await request.get('/api/wallet', { headers: { ...HEADERS, Authorization: `Bearer ${token}` } });
  const { wallet: won } = (await prized.json()) as { wallet: { amount: number; currency: string } };
  expect(won.currency).toBe('LAK');
  // One of the kip wheel's credit prizes (demo: 10,000, 50,000, 100,000 or 300,000 kip).
  expect([10_000, 50_000, 100_000, 300_000]).toContain(won.amount - 550_000);
});
