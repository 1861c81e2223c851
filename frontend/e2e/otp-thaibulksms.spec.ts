/**
 * A ThaiBulkSMS OTP registration (issue 31, ADR 0030): the Thai e2e backends run with
 * PAO_OTP_PROVIDER=thaibulksms, so the sandbox's twin of ThaiBulkSMS's OTP API makes the code and
 * texts it ("TBS Code: …"); the wizard shows ThaiBulkSMS's reference; a wrong code and a provider
 * fault are refused with their texts and register nobody; the right code then registers the
 * member, who logs in.
 */
import { freshPhone, latestOtp, randomDigits, setRegisterOtp } from './support/backend';
import { expect, test } from './support/fixtures';
import { acceptAgreementIfShown, expectHome, loginViaUi } from './support/flows';

test('a ThaiBulkSMS OTP registration', async ({ page, t, request }) => {
  await setRegisterOtp(request, true);
  const phone = freshPhone();
  const password = 'tbs-pass1';
  const name = `Tbs ${phone.slice(-4)}`;

  await page.goto('/register');
  await page.getByLabel(t('register.phone'), { exact: true }).fill(phone);
  await page.getByRole('button', { name: t('common.next') }).click();
  const codeField = page.getByLabel(t('register.otpCode'), { exact: true });
  await expect(codeField).toBeVisible();

  // The code came from ThaiBulkSMS (its text), and the screen shows its reference.
  const code = await latestOtp(request, phone);
  const [sms] = (await (await request.get(`/sandbox/sms?phone=${phone}`)).json()) as { text: string }[];
  expect(sms?.text).toMatch(/^TBS Code: \d{6} \(Ref: [A-Z0-9]+\)/);
  const refno = /\(Ref: ([A-Z0-9]+)\)/.exec(sms?.text ?? '')?.[1] ?? '';
  await expect(page.getByText(t('register.otpRef', { ref: refno }))).toBeVisible();

  // A wrong code: ThaiBulkSMS says no.
  const wrong = `${(Number(code) + 1) % 1_000_000}`.padStart(6, '0');
  await codeField.fill(wrong);
  await page.getByRole('button', { name: t('register.verify') }).click();
  await expect(page.getByText(t('errorMsg.OTP_CODE_INVALID'))).toBeVisible();

  // ThaiBulkSMS failing: "try again", never a pass.
  const broken = await request.post('/sandbox/thaibulksms-otp/controls', { data: { fault: 'error' } });
  expect(broken.ok()).toBe(true);
  try {
    await codeField.fill(code);
    await page.getByRole('button', { name: t('register.verify') }).click();
    await expect(page.getByText(t('errorMsg.OTP_VERIFY_FAIL'))).toBeVisible();
    await expect(codeField).toBeVisible();
  } finally {
    await request.post('/sandbox/thaibulksms-otp/controls', { data: { fault: null } });
  }

  // Healed: the right code passes, and the member registers.
  await page.getByRole('button', { name: t('register.verify') }).click();
  const nameField = page.getByLabel(t('register.name'), { exact: true });
  await expect(nameField).toBeVisible();
  await nameField.fill(name);
  await page.getByLabel(t('register.password'), { exact: true }).fill(password);
  await page.getByLabel(t('register.confirmPassword'), { exact: true }).fill(password);
  await page.getByRole('button', { name: t('common.next') }).click();
  await page.getByLabel(t('register.bank'), { exact: true }).selectOption('KBANK');
  await page.getByLabel(t('register.firstName'), { exact: true }).fill('somchai');
  await page.getByLabel(t('register.lastName'), { exact: true }).fill('jaidee');
  await page.getByLabel(t('register.accountNo'), { exact: true }).fill(randomDigits(10));
  await page.getByRole('button', { name: t('register.submit') }).click();
  await expect(page.getByText(t('register.success')).first()).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 5000 });

  await loginViaUi(page, t, phone, password);
  await acceptAgreementIfShown(page, t);
  await expectHome(page, t, name);
});
