/** Route guards of spec §2: login-required routes carry the wanted URL through /login. */
import { createMember } from './support/backend';
import { expect, test } from './support/fixtures';
import { acceptAgreementIfShown, loginViaUi } from './support/flows';

test('a guarded URL redirects to /login and back after login @desktop', async ({ page, t, request }) => {
  const member = await createMember(request);
  await page.goto('/user/statement');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fuser%2Fstatement$/);
  await loginViaUi(page, t, member.phone, member.password);
  await expect(page).toHaveURL(/\/user\/statement$/);
  await expect(page.getByRole('heading', { name: t('statement.title') })).toBeVisible();
});

test('/ goes to /user, which needs a login', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fuser$/);
});

test("'remember me' off keeps the token for the tab only", async ({ page, t, request }) => {
  const member = await createMember(request);
  await page.goto('/login');
  await page.getByLabel(t('login.remember')).uncheck();
  await loginViaUi(page, t, member.phone, member.password);
  await expect(page).toHaveURL(/\/user\/home$/);
  await acceptAgreementIfShown(page, t);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeTruthy();
});

test('opening /login with a session ends it', async ({ page, t, request }) => {
  const member = await createMember(request);
  await loginViaUi(page, t, member.phone, member.password);
  await expect(page).toHaveURL(/\/user\/home$/);
  await page.evaluate(() => localStorage.setItem('remember-agreement', 'true'));
  await page.goto('/login');
  await expect(page.getByRole('button', { name: t('login.submit'), exact: true })).toBeVisible();
  expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('remember-agreement')])).toEqual([null, null]);
  await page.goto('/user/home');
  await expect(page).toHaveURL(/\/login\?redirect=/);
});

test('an expired or revoked token sends the member back to /login', async ({ page, t, request }) => {
  const member = await createMember(request);
  await loginViaUi(page, t, member.phone, member.password);
  await expect(page).toHaveURL(/\/user\/home$/);
  await page.evaluate(() => localStorage.setItem('token', 'not-a-real-token'));
  await page.goto('/user/profile');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fuser%2Fprofile$/);
});
