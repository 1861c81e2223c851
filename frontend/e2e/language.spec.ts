/** Language choice: default th, the dropdown switches, the choice survives a reload (spec §1). */
import { expect, test, tr } from './support/fixtures';

test('language switch persists across reload and sets <html lang> and the cookie @desktop', async ({
  page,
  context,
}) => {
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('e2e-started')) {
      sessionStorage.setItem('e2e-started', '1');
      localStorage.removeItem('locale');
    }
  });
  await page.goto('/login');
  // No saved choice: Thai.
  await expect(page.locator('html')).toHaveAttribute('lang', 'th');
  await expect(page.getByRole('heading', { name: tr('th', 'login.title') })).toBeVisible();

  const menu = (locale: 'th' | 'la' | 'en') =>
    page.getByRole('button', { name: tr(locale, 'language.change', { language: tr(locale, `language.${locale}`) }) });

  await menu('th').click();
  await expect(page.getByRole('button', { name: 'ไทย', exact: true })).toBeDisabled();
  await page.getByRole('button', { name: 'English', exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { name: tr('en', 'login.title') })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en');
  expect((await context.cookies()).find((c) => c.name === 'i18next')?.value).toBe('EN');

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { name: tr('en', 'login.title') })).toBeVisible();

  await menu('en').click();
  await page.getByRole('button', { name: 'ລາວ', exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'lo');
  await expect(page.getByRole('heading', { name: tr('la', 'login.title') })).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === 'i18next')?.value).toBe('LA');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'lo');

  // The menu is keyboard usable: Escape closes it and focus returns to the trigger.
  await menu('la').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'English', exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'English', exact: true })).toHaveCount(0);
  await expect(menu('la')).toBeFocused();
});
