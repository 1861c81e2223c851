/**
 * The content editor end to end, at 1366×768: a manager writes contact text with <b> and a
 * script / onerror payload, sees the sanitised preview and saves; a player, in another browser
 * context on a phone, sees the sanitised text on the contact page and no script ran. The manager
 * restores the earlier text from the history (which shows it per language, as text) and the player
 * sees it again. A refund minimum above its maximum is refused next to the field and nothing
 * changes.
 */
import { createMember, setRegisterOtp } from './support/backend';
import { expect, expectAccessible, test, screenshot } from './support/fixtures';
import { openHome } from './support/flows';
import { enrolledStaff, openBackOffice } from './support/staff';

const shot = (name: string) => `test-results/screens/backoffice-content-${name}.png`;
type Contact = { contactText: string };

test('a manager edits the contact text, players see it sanitised, and it is restored from history', async ({ page, request, browser, baseURL, t, appLocale }) => {
  test.setTimeout(120_000);
  const before = ((await (await request.get(`/api/lookup/contact?lang=${appLocale}`)).json()) as Contact).contactText;
  const marker = `Call e2e ${Date.now().toString().slice(-6)}`;
  const payload = `<b>${marker}</b><script>window.__pwned = 1</script><img src="/x.png" alt="" onerror="window.__pwned = 2">`;
  const manager = await enrolledStaff(request, 'manager');
  await openBackOffice(page, t, manager);
  await page.getByRole('navigation', { name: t('bo.nav.label') }).getByRole('link', { name: t('bo.nav.content') }).click();
  await expect(page.getByRole('heading', { name: t('bo.content.title') })).toBeVisible();

  const field = t('bo.settingsEditor.fieldIn', { field: t('bo.settingsEditor.field.contactText'), lang: t(`bo.settingsEditor.lang.${appLocale}`) });
  const original = await page.getByLabel(field, { exact: true }).inputValue();
  await page.getByLabel(field, { exact: true }).fill(payload);
  const preview = page.getByRole('region', { name: t('bo.settingsEditor.preview', { field }) });
  await expect(preview.locator('b')).toHaveText(marker);
  await expect(preview.locator('img')).not.toHaveAttribute('onerror', /.*/);
  await page.getByRole('button', { name: t('bo.settingsEditor.save') }).click();
  await expect(page.getByRole('status').filter({ hasText: t('bo.settingsEditor.saved') })).toBeVisible();
  const history = page.getByRole('region', { name: t('bo.settingsEditor.history') });
  await expect(history.getByText(manager.name).first()).toBeVisible();
  // The history reads the change as text per language, not as the stored JSON or markup.
  await expect(history.getByText(marker).first()).toBeVisible();
  await expect(history.getByText(/\{"(th|la|en)":|<b>/)).toHaveCount(0);
  await expectAccessible(page, 'content editor');
  await screenshot(page, { path: shot('saved') });

  // A player on a phone, in another browser context.
  await setRegisterOtp(request, false);
  const member = await createMember(request);
  const phone = await browser.newContext({ baseURL, viewport: { width: 360, height: 740 }, hasTouch: true });
  const player = await phone.newPage();
  await player.addInitScript((locale) => localStorage.setItem('locale', locale), appLocale);
  await openHome(player, t, member);
  await player.goto('/user/contact');
  await expect(player.getByText(marker)).toBeVisible();
  expect(await player.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  const shown = ((await (await request.get(`/api/lookup/contact?lang=${appLocale}`)).json()) as Contact).contactText;
  expect(shown).toContain(`<b>${marker}</b>`);
  expect(shown).not.toMatch(/script|onerror/);
  await screenshot(player, { path: shot('player') });

  // The manager restores the text from before the change; the player sees it again.
  await history.getByRole('button', { name: t('bo.settingsEditor.restore') }).first().click();
  const confirm = page.getByRole('dialog', { name: t('bo.settingsEditor.restoreTitle') });
  await confirm.getByRole('button', { name: t('bo.settingsEditor.restore') }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByLabel(field, { exact: true })).toHaveValue(original);
  await expect
    .poll(async () => ((await (await request.get(`/api/lookup/contact?lang=${appLocale}`)).json()) as Contact).contactText)
    .toBe(before);
  await player.reload();
  await expect(player.getByRole('heading', { name: t('contact.title') })).toBeVisible();
  await expect(player.getByText(marker)).toHaveCount(0);
  await phone.close();

  // An invalid rule: the refund minimum above its maximum is refused next to the field.
  await page.getByRole('tab', { name: t('bo.content.tab.rules') }).click();
  const minimum = page.getByLabel(`${t('bo.settingsEditor.field.refundMinimum')} (${t('common.currency.THB')})`, { exact: true });
  const kept = await minimum.inputValue();
  await minimum.fill('99999999');
  await page.getByRole('button', { name: t('bo.settingsEditor.save') }).click();
  await expect(page.getByRole('alert').filter({ hasText: t('errorMsg.SETTING_RANGE') })).toBeVisible();
  await expect(minimum).toHaveAttribute('aria-invalid', 'true');
  await screenshot(page, { path: shot('rules-error') });
  await page.reload();
  await expect(page.getByLabel(`${t('bo.settingsEditor.field.refundMinimum')} (${t('common.currency.THB')})`, { exact: true })).toHaveValue(kept);
});
