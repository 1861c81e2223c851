/** A closed site: /login asks first and goes to /terminated; any 'gone' answer does too. */
import { paoOps } from './support/backend';
import { expect, expectAccessible, test } from './support/fixtures';

test.afterAll(() => {
  paoOps('site', 'reopen');
});

test('a terminated site shows /terminated', async ({ page, t }) => {
  paoOps('site', 'terminate');
  await page.goto('/login');
  await expect(page).toHaveURL(/\/terminated$/);
  await expect(page.getByRole('heading', { name: t('terminated.title') })).toBeVisible();
  await expect(page).toHaveTitle(/Page Not Found/);
  await expectAccessible(page, 'terminated');

  // A member page whose API call answers 'gone' ends up there too.
  await page.evaluate(() => localStorage.setItem('token', 'whatever'));
  await page.goto('/user/home');
  await expect(page).toHaveURL(/\/terminated$/);
});
