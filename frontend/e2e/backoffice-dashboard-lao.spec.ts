/**
 * The dashboard of a Lao operator (the Lao variant's backend, PAO_LAO_MODE=1) at 1366×768, in
 * Thai and English: members hold kip and baht; the figures are in kip, each with its unit, and
 * the currency switch shows the baht wallets' figures, kept in the URL as the range changes.
 */
import type { Page } from '@playwright/test';
import { paoOps, randomDigits, setRegisterOtp } from './support/backend';
import { expect, expectAccessible, LAO_BACKEND_LOCK, test, type Locale, screenshot } from './support/fixtures';
import { enrolledStaff, openBackOffice } from './support/staff';

const HEADERS = { 'X-Pao-Client': 'wallet' };
const number = (text: string | null) => Number((text ?? '').replace(/[^\d.-]/g, ''));

/** The value of the dashboard's figure named `label` (its <dt>). */
function figure(page: Page, label: string) {
  return page.getByRole('term').filter({ hasText: new RegExp(`^${label.replace(/[()]/g, '\\$&')}$`) }).locator('xpath=following-sibling::dd[1]');
}

// The worker's backend is the Lao variant's (a worker option: the whole file).
test.use({ variant: 'la' });
// terminated.spec.ts closes this backend's site: never at the same time as these tests.
test.describe.configure({ lock: LAO_BACKEND_LOCK });

for (const locale of ['th', 'en'] as const satisfies readonly Locale[]) {
  test.describe(`on a Lao server (${locale})`, () => {
    test.use({ appLocale: locale });

    test('the figures are in kip with their unit, and the switch shows the baht wallets', async ({ page, request, t }) => {
      await page.setViewportSize({ width: 1366, height: 768 });
      await page.addInitScript((lang) => {
        if (!localStorage.getItem('locale')) localStorage.setItem('locale', lang);
      }, locale);
      await setRegisterOtp(request, false);
      // A kip member and a baht member of the Lao operator, each with a deposit taken by hand.
      for (const [currency, amount] of [['LAK', '500000'], ['BAHT', '300']] as const) {
        const phone = `20${randomDigits(8)}`;
        const created = await request.post('/api/account', {
          headers: HEADERS,
          data: { name: `E2E ${currency} ${phone.slice(-4)}`, username: phone, password: 'secret123', sourceCode: null, inviteCode: null, bankCode: 'BCEL', bankAccountName: 'E2E MEMBER', bankAccountNo: randomDigits(13), currency, otpToken: null },
        });
        expect(created.status(), await created.text()).toBe(201);
        paoOps('deposit', phone, amount, '--note', `e2e dashboard ${currency}`);
      }
      const manager = await enrolledStaff(request, 'manager');
      await openBackOffice(page, t, manager);
      const deposits = figure(page, t('bo.dashboard.deposits'));
      await expect(deposits).toHaveText(/₭$/);
      expect(number(await deposits.textContent())).toBeGreaterThanOrEqual(500000);
      await expect(page.getByText(t('bo.dashboard.amountsIn', { unit: t('common.currency.LAK') }), { exact: false })).toBeVisible();
      const currencies = page.getByRole('group', { name: t('bo.dashboard.currency') });
      await expect(currencies.getByRole('button', { name: t('common.currency.LAK') })).toHaveAttribute('aria-pressed', 'true');
      await expectAccessible(page, 'dashboard in kip');
      await screenshot(page, { path: `test-results/screens/backoffice-dashboard-lao-${locale}.png`, fullPage: true });

      await currencies.getByRole('button', { name: t('common.currency.THB') }).click();
      await expect(page).toHaveURL(/[?&]currency=THB/);
      await expect(deposits).toHaveText(/฿$/);
      expect(number(await deposits.textContent())).toBeGreaterThanOrEqual(300);
      await expect(currencies.getByRole('button', { name: t('common.currency.THB') })).toHaveAttribute('aria-pressed', 'true');
      // The range keeps the currency.
      await page.getByRole('button', { name: t('bo.dashboard.preset.7d') }).click();
      await expect(page).toHaveURL(/range=7d.*currency=THB|currency=THB.*range=7d/);
      await expect(deposits).toHaveText(/฿$/);
    });
  });
}
