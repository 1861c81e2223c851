/**
 * Player protection (issue 33 §4) as a member lives it: a deposit limit set on the play-limits
 * page (reached from the profile) refuses a QR deposit over it and names what is left; a
 * self-exclusion, confirmed in a dialog that says what happens, turns home into a withdraw-only
 * view, and the member still withdraws. The 24-hour cooling-off of a raise and the end of a
 * self-exclusion need a moved clock: the backend's tests/api/test_player_protection.py has them.
 */
import { createMember } from './support/backend';
import { expect, expectAccessible, test, screenshot } from './support/fixtures';
import { openHome } from './support/flows';
import { payQrAtSandboxBank } from './support/sandbox-bank';

const SHOTS = 'test-results/screens';

test('deposit limit, refused over it, self-exclusion, withdraw-only home, still withdraw', async ({
  page,
  context,
  request,
  t,
}) => {
  const member = await createMember(request);
  await openHome(page, t, member);

  // 100 baht in through a KBANK QR paid at the sandbox bank.
  const kbank = 'ธนาคารกสิกรไทย';
  await page.getByRole('button', { name: t('home.deposit') }).click();
  let deposit = page.getByRole('dialog', { name: t('deposit.title') });
  await deposit.getByRole('tab', { name: t('deposit.qrTab', { name: kbank }), exact: true }).click();
  await deposit.getByRole('button', { name: '100.00', exact: true }).click();
  await deposit.getByRole('button', { name: t('deposit.qr.create') }).click();
  const payload = ((await deposit.getByRole('status', { name: t('deposit.qr.text') }).textContent()) ?? '').trim();
  const shown = (await deposit.locator('.deposit-qr-amount strong').textContent()) ?? '';
  const paid = Number(/[\d,]+\.\d\d/.exec(shown)?.[0] ?? 'NaN');
  await payQrAtSandboxBank(context, payload);
  await expect(deposit.getByText(t('deposit.qr.paidTitle'))).toBeVisible();
  await deposit.getByRole('button', { name: t('common.ok'), exact: true }).click();

  // The play-limits page from the profile: a daily limit of 150 applies at once.
  await page.getByRole('link', { name: t('nav.profile') }).click();
  await page.getByRole('link', { name: t('protection.title') }).click();
  await expect(page.getByRole('heading', { name: t('protection.title'), level: 1 })).toBeVisible();
  const unit = t('common.currency.THB');
  const limits = page.getByRole('region', { name: t('protection.limits') });
  await expect(page.getByRole('region', { name: t('protection.lossLimits') })).toBeVisible();
  await limits.getByLabel(t('protection.fieldLabel', { period: t('protection.period.day'), unit })).fill('150');
  await limits.getByRole('button', { name: t('protection.save') }).click();
  await expect(page.getByText(t('protection.savedNow'))).toBeVisible();
  const left = (150 - paid).toFixed(2);
  await expect(limits.getByText(t('protection.inForce', { amount: '150.00' }))).toBeVisible();
  await expect(
    limits.getByText(t('protection.usage', { deposited: paid.toFixed(2), remaining: left })),
  ).toBeVisible();
  await expectAccessible(page, 'play limits');
  // The toast (gone after 4 s anyway) would cover the top of the screenshot.
  await page.getByRole('button', { name: t('common.dismiss') }).first().click({ timeout: 1000 }).catch(() => undefined);
  await screenshot(page, { path: `${SHOTS}/protection-limits.png`, fullPage: true });

  // Another 100 by QR is over the limit: refused before any QR exists, with what is left.
  await page.getByRole('link', { name: t('nav.home') }).click();
  await page.getByRole('button', { name: t('home.deposit') }).click();
  deposit = page.getByRole('dialog', { name: t('deposit.title') });
  await deposit.getByRole('tab', { name: t('deposit.qrTab', { name: kbank }), exact: true }).click();
  await deposit.getByRole('button', { name: '100.00', exact: true }).click();
  await deposit.getByRole('button', { name: t('deposit.qr.create') }).click();
  await expect(
    page.getByText(t('errorMsg.DEPOSIT_LIMIT_REACHED', { remaining: Number(left) })),
  ).toBeVisible();
  await expect(deposit.getByRole('img')).toHaveCount(0);
  await screenshot(page, { path: `${SHOTS}/protection-refused.png` });

  // The deposit modal's own link back to the page; a 6-month self-exclusion, said plainly first.
  await deposit.getByRole('link', { name: t('protection.depositLink') }).click();
  await expect(page).toHaveURL(/\/user\/protection$/);
  await page.getByLabel(t('protection.selfExclusion')).selectOption({ label: t('protection.choice.months6') });
  await page.getByRole('button', { name: t('protection.selfButton') }).click();
  const confirm = page.getByRole('alertdialog', {
    name: t('protection.confirmSelfTitle', { length: t('protection.choice.months6') }),
  });
  await expect(confirm.getByText(t('protection.closed'), { exact: false })).toBeVisible();
  await expect(confirm).toContainText(t('protection.withdrawOpen'));
  await expect(confirm).toContainText(t('protection.noShorter'));
  await screenshot(page, { path: `${SHOTS}/protection-confirm.png` });
  await confirm.getByRole('button', { name: t('protection.confirmSelf') }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('heading', { name: t('protection.status') })).toBeVisible();
  await expect(page.getByText(t('protection.statusSelf'), { exact: true })).toBeVisible();

  // Home is withdraw-only: the banner says so, no deposit or games, the withdrawal goes through.
  await page.getByRole('link', { name: t('nav.home') }).click();
  const banner = page.getByRole('region', { name: t('protection.status') });
  await expect(banner).toContainText(t('protection.statusSelf'));
  await expect(banner.getByRole('link', { name: t('protection.open') })).toBeVisible();
  await expect(page.getByRole('button', { name: t('home.withdraw') })).toBeVisible();
  await expect(page.getByRole('button', { name: t('home.deposit') })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: t('games.title') })).toHaveCount(0);
  await expectAccessible(page, 'withdraw-only home');
  await screenshot(page, { path: `${SHOTS}/protection-home.png`, fullPage: true });

  await page.getByRole('button', { name: t('home.withdraw') }).click();
  const withdraw = page.getByRole('dialog', { name: t('withdraw.title') });
  await withdraw.getByLabel(t('withdraw.amount', { unit }), { exact: true }).fill('100');
  await withdraw.getByRole('button', { name: t('withdraw.submit') }).click();
  const result = page.getByRole('alertdialog');
  await expect(result.getByText(t('withdraw.successText'))).toBeVisible();
  await result.getByRole('button', { name: t('common.ok'), exact: true }).click();
  await expect(page.locator('.balance-amount')).toContainText((paid - 100).toFixed(2));
});
