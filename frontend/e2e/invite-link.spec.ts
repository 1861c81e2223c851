/**
 * The invite link at 360 px (phone-th, and phone-la / phone-en by @la @en): the copy button stays
 * on the link's line however long the link and whatever the language, instead of wrapping below
 * it (it did in Lao); the link itself breaks inside its room.
 */
import { createMember } from './support/backend';
import { expect, test } from './support/fixtures';
import { openHome } from './support/flows';

test('the invite link keeps its copy button on its line at 360 px @la @en', async ({ page, request, t, appLocale }) => {
  await openHome(page, t, await createMember(request));
  await page.getByRole('button', { name: t('home.invite'), exact: true }).click();
  const modal = page.getByRole('dialog', { name: t('promotions.invite.title') });
  const link = modal.locator('.promo-link');
  const text = link.locator('.mono');
  await expect(text).toContainText('/register?code=');
  const copy = link.getByRole('button', { name: t('common.copy', { label: t('promotions.invite.linkLabel') }) });
  const [row, url, button] = await Promise.all([link.boundingBox(), text.boundingBox(), copy.boundingBox()]);
  if (!row || !url || !button) throw new Error('the invite link is not laid out');
  // Beside the link, inside the row: right of the link's text, overlapping its lines vertically.
  expect(button.x).toBeGreaterThanOrEqual(url.x + url.width - 1);
  expect(button.x + button.width).toBeLessThanOrEqual(row.x + row.width + 1);
  expect(button.y).toBeLessThan(url.y + url.height);
  expect(button.y + button.height).toBeGreaterThan(url.y);
  await modal.screenshot({ path: `test-results/screens/invite-link-${appLocale}.png` });
});
