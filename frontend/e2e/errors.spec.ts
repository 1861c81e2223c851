/** Server error codes show their translated text (spec §8); unknown paths show 'Page Not Found'. */
import { createMember, randomDigits, setRegisterOtp } from './support/backend';
import { expect, expectAccessible, test } from './support/fixtures';
import { loginViaUi } from './support/flows';

test('a wrong password shows the WRONG_CREDENTIAL text, cleared on input @main', async ({ page, t, request }) => {
  const member = await createMember(request);
  await loginViaUi(page, t, member.phone, 'wrong-password');
  const message = page.getByText(t('errorMsg.WRONG_CREDENTIAL'));
  await expect(message).toBeVisible();
  await expectAccessible(page, 'login with error');
  await page.getByLabel(t('login.password'), { exact: true }).fill('x');
  await expect(message).toHaveCount(0);
});

test('registering a taken phone number shows EXISTING_USER as a toast', async ({ page, t, request }) => {
  const member = await createMember(request);
  await setRegisterOtp(request, false);
  await page.goto('/register');
  await page.getByLabel(t('register.phone'), { exact: true }).fill(member.phone);
  await page.getByRole('button', { name: t('common.next') }).click();
  await page.getByLabel(t('register.name'), { exact: true }).fill('Someone');
  await page.getByLabel(t('register.password'), { exact: true }).fill('pass1234');
  await page.getByLabel(t('register.confirmPassword'), { exact: true }).fill('pass1234');
  await page.getByRole('button', { name: t('common.next') }).click();
  // The server refuses the phone at step 3 when it can check a partial form, else at the end.
  const toast = page.getByText(t('errorMsg.EXISTING_USER'));
  const bank = page.getByLabel(t('register.bank'), { exact: true });
  await expect(toast.or(bank).first()).toBeVisible();
  if (await bank.isVisible()) {
    await bank.selectOption('SCB');
    await page.getByLabel(t('register.firstName'), { exact: true }).fill('SOME');
    await page.getByLabel(t('register.lastName'), { exact: true }).fill('ONE');
    await page.getByLabel(t('register.accountNo'), { exact: true }).fill(randomDigits(10));
    await page.getByRole('button', { name: t('register.submit') }).click();
  }
  await expect(toast).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
});

test('an unknown path shows the not-found page', async ({ page, t }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: t('notFound.title') })).toBeVisible();
  await expectAccessible(page, 'not found');
});
