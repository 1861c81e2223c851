/**
 * The member's main path: register (OTP on, then off) → login → home → profile → change
 * password → logout. With OTP on (@main) it runs in each language and on phone and desktop; the
 * OTP-off variant differs only by the skipped step, so it runs in phone-th alone.
 */
import { freshPhone, latestOtp, randomDigits, setRegisterOtp } from './support/backend';
import { expect, expectAccessible, test } from './support/fixtures';
import { acceptAgreementIfShown, expectHome, loginViaUi } from './support/flows';

for (const otp of [true, false]) {
  test(`register with OTP ${otp ? 'on' : 'off'}, then login, profile, password, logout${otp ? ' @main' : ''}`, async ({
    page,
    t,
    request,
  }) => {
    await setRegisterOtp(request, otp);
    const phone = freshPhone();
    const name = `Somchai ${phone.slice(-4)}`;
    const password = 'first-pass1';

    // Step 1: phone (a short number is refused first).
    await page.goto('/register');
    await expect(page.getByRole('heading', { name: t('register.title') })).toBeVisible();
    await expectAccessible(page, 'register step 1');
    const phoneField = page.getByLabel(t('register.phone'), { exact: true });
    await phoneField.fill(phone.slice(0, 9));
    await page.getByRole('button', { name: t('common.next') }).click();
    await expect(page.getByText(t('register.phoneLength'))).toBeVisible();
    await phoneField.fill(phone);
    await page.getByRole('button', { name: t('common.next') }).click();

    // Step 2: OTP from the sandbox SMS outbox (skipped when OTP is off).
    if (otp) {
      const codeField = page.getByLabel(t('register.otpCode'), { exact: true });
      await expect(codeField).toBeVisible();
      await expectAccessible(page, 'register step 2');
      await codeField.fill(await latestOtp(request, phone));
      await page.getByRole('button', { name: t('register.verify') }).click();
    }

    // Step 3: profile; mismatching passwords are refused first.
    const nameField = page.getByLabel(t('register.name'), { exact: true });
    await expect(nameField).toBeVisible();
    await expect(page.getByLabel(t('register.otpCode'), { exact: true })).toHaveCount(0);
    await nameField.fill(name);
    await page.getByLabel(t('register.password'), { exact: true }).fill(password);
    await page.getByLabel(t('register.confirmPassword'), { exact: true }).fill('other-pass');
    await page.getByRole('button', { name: t('common.next') }).click();
    await expect(page.getByText(t('register.passwordMismatch'))).toBeVisible();
    await page.getByLabel(t('register.confirmPassword'), { exact: true }).fill(password);
    await expectAccessible(page, 'register step 3');
    await page.getByRole('button', { name: t('common.next') }).click();

    // Step 4: bank; KTB needs an English name.
    const bank = page.getByLabel(t('register.bank'), { exact: true });
    await expect(bank).toBeVisible();
    await expect(page.getByText(t('register.fastestHint'))).toBeVisible();
    await bank.selectOption('KTB');
    await page.getByLabel(t('register.firstName'), { exact: true }).fill('สมชาย');
    await page.getByLabel(t('register.lastName'), { exact: true }).fill('ใจดี');
    await page.getByLabel(t('register.accountNo'), { exact: true }).fill(randomDigits(10));
    await page.getByRole('button', { name: t('register.submit') }).click();
    await expect(page.getByText(t('register.englishOnly'))).toBeVisible();
    await page.getByLabel(t('register.firstName'), { exact: true }).fill('somchai');
    await page.getByLabel(t('register.lastName'), { exact: true }).fill('jaidee');
    await expect(page.getByLabel(t('register.firstName'), { exact: true })).toHaveValue('SOMCHAI');
    await expectAccessible(page, 'register step 4');
    await page.getByRole('button', { name: t('register.submit') }).click();
    await expect(page.getByText(t('register.success')).first()).toBeVisible();
    await expect(page).toHaveURL(/\/login$/, { timeout: 5000 });

    // Login → home.
    await expectAccessible(page, 'login');
    await loginViaUi(page, t, phone, password);
    await expectHome(page, t, name);
    await acceptAgreementIfShown(page, t);
    await expectAccessible(page, 'home');

    // Profile.
    await page.getByRole('link', { name: t('nav.profile') }).click();
    await expect(page).toHaveURL(/\/user\/profile$/);
    await expect(page.getByText(name)).toBeVisible();
    await expect(page.getByText('SOMCHAI JAIDEE')).toBeVisible();
    await expectAccessible(page, 'profile');

    // Change password: mismatch first, then success → saved → /login.
    const newPassword = 'second-pass2';
    await page.getByRole('button', { name: t('profile.changePassword') }).click();
    const dialog = page.getByRole('dialog', { name: t('profile.changePassword') });
    await dialog.getByLabel(t('profile.oldPassword'), { exact: true }).fill(password);
    await dialog.getByLabel(t('profile.newPassword'), { exact: true }).fill(newPassword);
    await dialog.getByLabel(t('profile.confirmPassword'), { exact: true }).fill('nope');
    await dialog.getByRole('button', { name: t('common.save') }).click();
    await expect(dialog.getByText(t('profile.notEqual'))).toBeVisible();
    await expectAccessible(page, 'change password');
    await dialog.getByLabel(t('profile.confirmPassword'), { exact: true }).fill(newPassword);
    await dialog.getByRole('button', { name: t('common.save') }).click();
    const saved = page.getByRole('alertdialog', { name: t('common.saved') });
    await expect(saved.getByText(t('profile.passwordSaved'))).toBeVisible();
    await saved.getByRole('button', { name: t('common.ok'), exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);

    // The old password no longer works; the new one does. Then log out.
    await loginViaUi(page, t, phone, password);
    await expect(page.getByText(t('errorMsg.WRONG_CREDENTIAL'))).toBeVisible();
    await page.getByLabel(t('login.password'), { exact: true }).fill(newPassword);
    await expect(page.getByText(t('errorMsg.WRONG_CREDENTIAL'))).toHaveCount(0);
    await page.getByRole('button', { name: t('login.submit'), exact: true }).click();
    await expectHome(page, t, name);
    await page.getByRole('button', { name: t('nav.logout') }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token') ?? sessionStorage.getItem('token'))).toBeNull();
    await page.goto('/user/home');
    await expect(page).toHaveURL(/\/login\?redirect=/);
  });
}
