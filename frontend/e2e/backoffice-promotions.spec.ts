/**
 * The promotions editor, in English at 1366×768: a manager creates a bonus (previewed as the
 * player's card and modal) with a sort order that puts it last; a player, in a phone-sized
 * browser of their own, finds it last on the bonus page and receives it. The manager creates a
 * promotion code, a player redeems it and the usage shows one claim. A sort order out of bounds
 * is refused before anything is sent, a negative amount (with the rule it breaks) and a code
 * already used by the server, each beside its field, and nothing is created. A fixed amount asks
 * for no maximum; the preview's language changes the player's words too. The screens pass axe; screenshots go to
 * test-results/screens/.
 */
import { createMember } from './support/backend';
import { expect, expectAccessible, test, tr, screenshot } from './support/fixtures';
import { acceptAgreementIfShown, loginViaUi } from './support/flows';
import { enrolledStaff, openBackOffice } from './support/staff';

const PLAYER = { 'X-Pao-Client': 'wallet' };
const shot = (name: string) => `test-results/screens/backoffice-promotions-${name}-en.png`;

test.use({ appLocale: 'en' });

test('a manager creates a bonus and a promotion code that players receive; bad input creates nothing', async ({ page, browser, request, t, baseURL }) => {
  const suffix = Date.now().toString(36).slice(-5).toUpperCase();
  const bonusCode = `E2E${suffix}`;
  const promoCode = `CODE${suffix}`;
  const bonusName = `Welcome back ${suffix}`;
  const manager = await enrolledStaff(request, 'manager');
  await openBackOffice(page, t, manager);
  await page.getByRole('navigation', { name: t('bo.nav.label') }).getByRole('link', { name: t('bo.nav.promotions') }).click();
  await expect(page.getByRole('heading', { name: t('bo.promotions.title') })).toBeVisible();

  // A bonus: 50 baht, no deposit needed, previewed as players will see it.
  await page.getByRole('button', { name: t('bo.promotions.addBonus') }).click();
  const dialog = page.getByRole('dialog', { name: t('bo.promotions.addBonusTitle') });
  await dialog.getByLabel(t('bo.promotions.code'), { exact: true }).fill(bonusCode);
  await dialog.getByLabel(`${t('bo.promotions.name')} (${t('bo.promotions.lang.th')})`).fill(`ยินดีต้อนรับ ${suffix}`);
  await dialog.getByLabel(`${t('bo.promotions.name')} (${t('bo.promotions.lang.en')})`).fill(bonusName);
  await dialog.getByRole('radio', { name: t('bo.promotions.mode.fixed') }).check();
  await dialog.getByLabel(t('bo.promotions.fixedAmount'), { exact: true }).fill('-5');
  // A fixed amount is its own maximum: no maximum to type (with a percent there is one).
  await expect(dialog.getByLabel(t('bo.promotions.maxAmount'), { exact: true })).toHaveCount(0);
  await dialog.getByLabel(t('bo.promotions.turnoverMultiplier'), { exact: true }).fill('2');
  // A sort order beyond the server's bounds is refused here, before anything is sent.
  const sortOrder = dialog.getByLabel(t('bo.promotions.sortOrder'), { exact: true });
  await sortOrder.fill('3000000000');
  await dialog.getByRole('button', { name: t('common.save') }).click();
  await expect(sortOrder).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText(t('bo.promotions.sortOrderInvalid', { min: '-2,147,483,647', max: '2,147,483,647' }))).toBeVisible();
  await dialog.getByText(t('bo.promotions.sortOrder'), { exact: true }).scrollIntoViewIfNeeded();
  await screenshot(page, { path: shot('sort-order-refused') });
  // Larger than the demo bonuses' (1 to 3): players see this one last.
  await sortOrder.fill('999');
  await dialog.getByRole('button', { name: t('common.save') }).click();
  await expect(sortOrder).not.toHaveAttribute('aria-invalid');
  // The negative amount is refused beside its field; the dialog stays and nothing is created.
  await expect(dialog.getByLabel(t('bo.promotions.fixedAmount'), { exact: true })).toHaveAttribute('aria-invalid', 'true');
  // It says the rule, beside the field that breaks it.
  await expect(dialog.getByRole('alert')).toHaveText(t('bo.rule.min', { min: 0 }));
  await dialog.getByLabel(t('bo.promotions.fixedAmount'), { exact: true }).fill('50');
  const preview = dialog.getByRole('region', { name: t('bo.promotions.preview') });
  await preview.getByRole('button', { name: t('bo.promotions.lang.en') }).click();
  await expect(preview.getByRole('button', { name: new RegExp(bonusName) })).toBeVisible();
  await expect(preview.getByText(t('promotions.bonus.turnoverRule', { times: 2 }))).toBeVisible();
  // The player's own words follow the preview's language too, not the back office's.
  await preview.getByRole('button', { name: t('bo.promotions.lang.th') }).click();
  await expect(preview.getByRole('button', { name: tr('th', 'promotions.bonus.receive') })).toBeVisible();
  await expect(preview.getByText(tr('th', 'promotions.bonus.turnoverRule', { times: 2 }))).toBeVisible();
  await preview.getByRole('button', { name: t('bo.promotions.lang.en') }).click();
  await expectAccessible(page, 'bonus editor');
  await screenshot(page, { path: shot('editor') });
  await dialog.getByRole('button', { name: t('common.save') }).click();
  await expect(dialog).toBeHidden();
  const table = page.getByRole('table', { name: t('bo.promotions.kindName.bonus') });
  await expect(table.getByRole('row').filter({ hasText: bonusCode }).getByRole('cell').first()).toHaveText('999');
  await screenshot(page, { path: shot('bonuses') });

  // The player, on a phone of their own, sees it on the bonus page and receives it.
  const member = await createMember(request);
  const playerContext = await browser.newContext({ baseURL, viewport: { width: 360, height: 740 }, hasTouch: true });
  const app = await playerContext.newPage();
  await app.addInitScript(() => localStorage.setItem('locale', 'en'));
  const pt = (key: string, vars?: Record<string, string | number>) => tr('en', key, vars);
  await loginViaUi(app, pt, member.phone, member.password);
  await acceptAgreementIfShown(app, pt);
  await app.goto('/user/bonus');
  const cards = app.getByRole('region', { name: pt('promotions.bonus.list') }).getByRole('listitem');
  await expect(cards.last()).toContainText(bonusName);
  await expect(cards.first()).not.toContainText(bonusName);
  await app.getByRole('button', { name: new RegExp(bonusName) }).click();
  const modal = app.getByRole('dialog', { name: bonusName });
  await modal.getByRole('button', { name: pt('promotions.bonus.receive') }).click();
  await expect(app.getByText(pt('promotions.bonus.received', { amount: '50.00' }))).toBeVisible();
  await app.getByRole('alertdialog').getByRole('button', { name: pt('common.ok') }).click();
  await expect(app.getByRole('heading', { name: pt('promotions.bonus.active') })).toBeVisible();
  await playerContext.close();
  await page.reload();
  await expect(table.getByRole('row').filter({ hasText: bonusCode })).toContainText(t('bo.promotions.usageCell', { granted: 1, active: 1, cleared: 0, ended: 0 }));

  // A promotion code; then the same code again is refused and nothing more is created.
  await page.getByRole('tab', { name: t('bo.promotions.kindName.promotion') }).click();
  const codes = page.getByRole('table', { name: t('bo.promotions.kindName.promotion') });
  for (const attempt of ['first', 'again'] as const) {
    await page.getByRole('button', { name: t('bo.promotions.addCode') }).click();
    const form = page.getByRole('dialog', { name: t('bo.promotions.addCodeTitle') });
    await form.getByLabel(t('bo.promotions.promoCode'), { exact: true }).fill(promoCode);
    await form.getByLabel(`${t('bo.promotions.name')} (${t('bo.promotions.lang.en')})`).fill(`Spring ${suffix}`);
    await form.getByLabel(t('bo.promotions.fixedAmount'), { exact: true }).fill('20');
    await form.getByLabel(t('bo.promotions.totalLimit'), { exact: true }).fill('5');
    await form.getByRole('button', { name: t('common.save') }).click();
    if (attempt === 'first') {
      await expect(form).toBeHidden();
    } else {
      await expect(form.getByText(tr('en', 'errorMsg.BONUS_CODE_TAKEN'))).toBeVisible();
      await expect(form.getByLabel(t('bo.promotions.promoCode'), { exact: true })).toHaveAttribute('aria-invalid', 'true');
      await screenshot(page, { path: shot('code-taken') });
      await form.getByRole('button', { name: t('common.cancel') }).click();
    }
  }
  await expect(codes.getByRole('row').filter({ hasText: promoCode })).toHaveCount(1);

  // Another player redeems it; the usage shows one claim of five.
  const second = await createMember(request);
  const login = await request.post('/api/login', { headers: PLAYER, data: { username: second.phone, password: second.password } });
  const { token } = (await login.json()) as { token: string };
  const redeemed = await request.get(`/api/promotion/activate/${promoCode.toLowerCase()}`, {
    headers: { ...PLAYER, Authorization: `Bearer ${token}`, 'Idempotency-Key': `e2e-promo-${suffix}` },
  });
  expect(redeemed.status(), await redeemed.text()).toBe(200);
  await page.reload();
  await page.getByRole('tab', { name: t('bo.promotions.kindName.promotion') }).click();
  await expect(codes.getByRole('row').filter({ hasText: promoCode })).toContainText(t('bo.promotions.claimed', { claimed: 1, limit: 5 }));
  await expectAccessible(page, 'promotion codes');
  await screenshot(page, { path: shot('codes') });
});
