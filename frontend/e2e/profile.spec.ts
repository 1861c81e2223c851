/** The profile's bank account name fix: it changes where withdrawals go, so it needs the password. */
import { createLegacyMember } from './support/backend';
import { expect, expectAccessible, test } from './support/fixtures';
import { openHome } from './support/flows';

test('fixing the bank account name needs the password @en', async ({ page, t, request }) => {
  const member = createLegacyMember();
  await openHome(page, t, member);
  await page.getByRole('link', { name: t('nav.profile') }).click();
  await expect(page.getByRole('heading', { name: t('profile.title') })).toBeVisible();
  await expect(page.getByText('สมชาย ใจดี')).toBeVisible();

  await page.getByRole('button', { name: t('profile.editBankName') }).click();
  const dialog = page.getByRole('dialog', { name: t('profile.editBankName') });
  await dialog.getByLabel(t('profile.bankAccountName'), { exact: true }).fill('somchai jaidee');
  const password = dialog.getByLabel(t('profile.oldPassword'), { exact: true });
  await expect(password).toHaveAccessibleDescription(t('profile.passwordToConfirm'));
  await expectAccessible(page, 'bank name modal');

  // A wrong password is refused and nothing changes.
  await password.fill('not-my-password');
  await dialog.getByRole('button', { name: t('common.save') }).click();
  await expect(dialog.getByRole('alert')).toHaveText(t('errorMsg.WRONG_PASSWORD'));
  await expect(password).toHaveValue('');
  const profile = async () => {
    const login = await request.post('/api/login', {
      headers: { 'X-Pao-Client': 'wallet' },
      data: { username: member.phone, password: member.password },
    });
    const { token } = (await login.json()) as { token: string };
    const response = await request.get('/api/account/profile', {
      headers: { 'X-Pao-Client': 'wallet', Authorization: `Bearer ${token}` },
    });
    return ((await response.json()) as { bankAccount: { bankAccountName: string } }).bankAccount.bankAccountName;
  };
  expect(await profile()).toBe('สมชาย ใจดี');

  // The right one saves it, and the member is told by SMS.
  await password.fill(member.password);
  await dialog.getByRole('button', { name: t('common.save') }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('SOMCHAI JAIDEE')).toBeVisible();
  await expect(page.getByRole('button', { name: t('profile.editBankName') })).toHaveCount(0);
  expect(await profile()).toBe('SOMCHAI JAIDEE');
  const sms = (await (await request.get(`/sandbox/sms?phone=${member.phone}`)).json()) as { text: string }[];
  expect(sms.map((m) => m.text).join('\n')).toContain('bank account for your withdrawals was changed');
});
