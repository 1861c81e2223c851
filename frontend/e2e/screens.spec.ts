/**
 * Screenshots of every screen at 360×740 in th, la and en, written to test-results/screens/ for a
 * person to look at. Runs in the phone-th project only (it switches languages itself).
 */
import type { Page } from '@playwright/test';
import { expect, test, tr, type Locale, screenshot } from './support/fixtures';
import { acceptAgreementIfShown, loginViaUi } from './support/flows';

/** Waits until the page's animations and transitions (a dialog sliding in) have finished, for
 * the picture; endless ones (a spinner) are left running. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

test('screenshots of each screen in th, la and en', async ({ page, request }, info) => {
  test.skip(info.project.name !== 'phone-th', 'phone screenshots only');
  test.setTimeout(240_000);
  // The second demo member (250 THB): one withdrawal gives the statement a row to show.
  const headers = { 'X-Pao-Client': 'wallet' };
  const login = await request.post('/api/login', { headers, data: { username: '0898765432', password: 'demo1234' } });
  const { token } = (await login.json()) as { token: string };
  const auth = { ...headers, Authorization: `Bearer ${token}` };
  await request.post('/api/wallet/withdrawAll', { headers: { ...auth, 'Idempotency-Key': `screens-${Date.now()}` }, data: { amount: 100 } });
  const wallet = (await (await request.get('/api/wallet', { headers: auth })).json()) as { profile: { name: string } };
  const member = { phone: '0898765432', password: 'demo1234', name: wallet.profile.name };
  const shot = (locale: Locale, name: string) =>
    screenshot(page, { path: `test-results/screens/${locale}-${name}.png`, fullPage: false });

  for (const locale of ['th', 'la', 'en'] as const) {
    const t = (key: string, vars?: Record<string, string | number>) => tr(locale, key, vars);
    await page.goto('/login');
    await page.evaluate((l) => localStorage.setItem('locale', l), locale);
    await page.reload();
    await expect(page.getByRole('heading', { name: t('login.title') })).toBeVisible();
    await shot(locale, '01-login');
    await page.getByRole('button', { name: t('login.submit'), exact: true }).isDisabled();
    await loginViaUi(page, t, member.phone, 'wrong');
    await expect(page.getByText(t('errorMsg.WRONG_CREDENTIAL'))).toBeVisible();
    await shot(locale, '02-login-error');

    await page.goto('/register');
    await page.getByLabel(t('register.phone'), { exact: true }).fill('081');
    await page.getByRole('button', { name: t('common.next') }).click();
    await shot(locale, '03-register-phone');

    await page.goto('/howto');
    await expect(page.getByRole('button', { name: t('howto.videos.wallet') })).toBeVisible();
    await shot(locale, '04-howto');
    await page.goto('/contact');
    await expect(page.getByText(t('contact.version', { version: '1.1.14' }))).toBeVisible();
    await settled(page);
    await shot(locale, '05-contact');

    await page.goto('/login');
    await loginViaUi(page, t, member.phone, member.password);
    await expect(page).toHaveURL(/\/user\/home$/);
    // The prompt opens 1.5 s after home while the member has not accepted (the first pass).
    const agreement = (await (await request.get('/api/account/agreement', { headers: auth })).json()) as { accepted: boolean };
    if (!agreement.accepted) await expect(page.getByRole('button', { name: t('agreement.accept') })).toBeVisible();
    await settled(page);
    await shot(locale, '06-home-agreement');
    await acceptAgreementIfShown(page, t);
    await shot(locale, '07-home');
    await page.getByRole('button', { name: t('home.withdraw') }).click();
    await expect(page.getByRole('dialog', { name: t('withdraw.title') })).toBeVisible();
    await settled(page);
    await shot(locale, '08-withdraw');
    const withdraw = page.getByRole('dialog', { name: t('withdraw.title') });
    await withdraw.getByLabel(t('withdraw.amount'), { exact: true }).fill('40000');
    await withdraw.getByRole('button', { name: t('withdraw.submit') }).click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await settled(page);
    await shot(locale, '08b-withdraw-error');
    await page.getByRole('button', { name: t('common.ok'), exact: true }).click();
    await page.keyboard.press('Escape');

    await page.getByRole('link', { name: t('nav.profile') }).click();
    await expect(page.getByText(member.name, { exact: true })).toBeVisible();
    await shot(locale, '09-profile');
    await page.getByRole('button', { name: t('profile.changePassword') }).click();
    await shot(locale, '10-change-password');
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: t('protection.title') }).click();
    await expect(page.getByRole('heading', { name: t('protection.title'), level: 1 })).toBeVisible();
    await shot(locale, '10b-play-limits');
    await page.getByRole('button', { name: t('protection.selfButton') }).scrollIntoViewIfNeeded();
    await shot(locale, '10c-play-limits-break');

    await page.getByRole('link', { name: t('nav.statement') }).click();
    await expect(page.getByRole('heading', { name: t('statement.title') })).toBeVisible();
    await settled(page);
    await shot(locale, '11-statement');
    await page.getByRole('button', { name: t('nav.conditions') }).click();
    await settled(page);
    await shot(locale, '12-conditions');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: t('language.change', { language: t(`language.${locale}`) }) }).click();
    await shot(locale, '13-language-menu');
    await page.keyboard.press('Escape');

    await page.goto('/nowhere');
    await shot(locale, '14-not-found');
    await page.evaluate(() => localStorage.clear());
  }
});
