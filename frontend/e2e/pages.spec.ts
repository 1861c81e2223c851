/** Member and public pages beyond the main flow: withdraw, statement, conditions, how-to, contact. */
import { expect, expectAccessible, test } from './support/fixtures';
import { acceptAgreementIfShown, loginViaUi } from './support/flows';

const DEMO = { phone: '0812345678', password: 'demo1234' };

test('withdraw from home, then see it in the statement @desktop', async ({ page, t, request }) => {
  await loginViaUi(page, t, DEMO.phone, DEMO.password);
  await expect(page).toHaveURL(/\/user\/home$/);
  await acceptAgreementIfShown(page, t);
  await expect(page.getByText(t('home.lastUpdate', { time: '' }).trim())).toBeVisible();
  await page.getByRole('button', { name: t('home.refresh') }).click();

  await page.getByRole('button', { name: t('home.withdraw') }).click();
  const dialog = page.getByRole('dialog', { name: t('withdraw.title') });
  await expect(dialog.getByText(t('withdraw.bonusWarning'))).toBeVisible();
  expect(await page.evaluate(() => document.body.classList.contains('scroll-locked'))).toBe(true);
  await expectAccessible(page, 'withdraw modal');

  const limits = (await (await request.get('/api/lookup/withdraw', { headers: { 'X-Pao-Client': 'wallet' } })).json()) as {
    withdrawMin: number;
  };
  const amount = dialog.getByLabel(t('withdraw.amount'), { exact: true });
  await amount.fill('1.234');
  await dialog.getByRole('button', { name: t('withdraw.submit') }).click();
  await expect(dialog.getByText(t('withdraw.invalid'))).toBeVisible();
  if (limits.withdrawMin > 1) {
    await amount.fill(String(limits.withdrawMin - 1));
    await dialog.getByRole('button', { name: t('withdraw.submit') }).click();
    const min = limits.withdrawMin.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    await expect(dialog.getByText(t('withdraw.min', { min }))).toBeVisible();
  }
  await amount.fill(String(limits.withdrawMin));
  await dialog.getByRole('button', { name: t('withdraw.submit') }).click();
  const result = page.getByRole('alertdialog');
  await expect(result).toBeVisible();
  const succeeded = await result.getByText(t('withdraw.successText')).isVisible();
  await result.getByRole('button', { name: t('common.ok'), exact: true }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  if (!succeeded) {
    // Error dialogs go back to the form.
    await page.getByRole('dialog', { name: t('withdraw.title') }).getByRole('button', { name: t('common.close') }).click();
  }
  expect(await page.evaluate(() => document.body.classList.contains('scroll-locked'))).toBe(false);

  await page.getByRole('link', { name: t('nav.statement') }).click();
  await expect(page.getByRole('heading', { name: t('statement.title') })).toBeVisible();
  if (succeeded) {
    const row = page.getByRole('listitem').filter({ hasText: t('statement.types.withdraw') }).first();
    await expect(row).toContainText(t('statement.status.PENDING'));
    await expect(row).toContainText('-');
  }
  await expectAccessible(page, 'statement');
});

test('conditions popup and bottom menu of the member shell', async ({ page, t }) => {
  await loginViaUi(page, t, DEMO.phone, DEMO.password);
  await expect(page).toHaveURL(/\/user\/home$/);
  await acceptAgreementIfShown(page, t);
  await page.getByRole('button', { name: t('nav.conditions') }).click();
  const dialog = page.getByRole('dialog', { name: t('conditions.title') });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, 'conditions');
  await dialog.getByRole('button', { name: t('common.confirm') }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('link', { name: t('nav.contact') }).click();
  await expect(page).toHaveURL(/\/user\/contact$/);
  await page.getByRole('link', { name: t('nav.home') }).click();
  await expect(page).toHaveURL(/\/user\/home$/);
});

test('how-to lists five videos that open in a modal player', async ({ page, t }) => {
  await page.goto('/howto');
  await expect(page.getByRole('heading', { name: t('howto.title') })).toBeVisible();
  for (const key of ['wallet', 'enter_game', 'check_balance', 'receive_bonus', 'end_bonus']) {
    await expect(page.getByRole('button', { name: t(`howto.videos.${key}`) })).toBeVisible();
  }
  await expectAccessible(page, 'howto');
  await page.getByRole('button', { name: t('howto.videos.wallet') }).click();
  const dialog = page.getByRole('dialog', { name: t('howto.videos.wallet') });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('contact shows the text, QR image, version and link', async ({ page, t }) => {
  await page.goto('/contact');
  await expect(page.getByRole('heading', { name: t('contact.title') })).toBeVisible();
  await expect(page.getByText(t('contact.version', { version: '1.1.14' }))).toBeVisible();
  await expect(page.getByRole('img', { name: t('contact.qrAlt') })).toBeVisible();
  await expectAccessible(page, 'contact');
});

test('profile copies the account number with a toast', async ({ page, t, context, request }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await loginViaUi(page, t, DEMO.phone, DEMO.password);
  await expect(page).toHaveURL(/\/user\/home$/);
  await acceptAgreementIfShown(page, t);
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const profile = (await (
    await request.get('/api/account/profile', { headers: { Authorization: `Bearer ${token}`, 'X-Pao-Client': 'wallet' } })
  ).json()) as { bankAccount: { bankAccountNo: string } };
  await page.getByRole('link', { name: t('nav.profile') }).click();
  await page.getByRole('button', { name: t('common.copy', { label: t('profile.bankAccountNo') }) }).click();
  await expect(page.getByText(t('common.copied', { text: profile.bankAccount.bankAccountNo }))).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(profile.bankAccount.bankAccountNo);
});
