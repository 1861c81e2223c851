/**
 * The invite link at 360 px (phone-th, and phone-la / phone-en by @la @en): the copy button stays
 * on the link's line however long the link and whatever the language, instead of wrapping below
 * it (it did in Lao); the link itself breaks inside its room.
 */
import { createMember } from './support/backend';
import { expect, test, screenshot } from './support/fixtures';
import { openHome } from './support/flows';

test('the invite link keeps its copy button on its line at 360 px @la @en', async ({ page, request, t, appLocale }) => {
  await openHome(page, t, await createMember(request));
  await page.getByRole('button', { name: t('home.invite'), exact: true }).click();
  const modal = page.getByRole('dialog', { name: t('promotions.invite.title') });
  const link = modal.locator('.promo-link');
  const text = link.locator('.mono');
  await expect(text).toContainText('/register?code=');
  const copy = link.getByRole('button', { name: t('common.copy', { label: t('promotions.invite.linkLabel') }) });
  // Read until the layout settles (the modal's opening animation, the web font arriving on a
  // loaded machine): three boxes read mid-change disagreed. A layout that never holds fails.
  const layout = async () => {
    const [row, url, button] = await Promise.all([link.boundingBox(), text.boundingBox(), copy.boundingBox()]);
    if (!row || !url || !button) return 'the invite link is not laid out';
    // Beside the link, inside the row: right of the link's text, overlapping its lines vertically.
    if (button.x < url.x + url.width - 1) return 'the button is not right of the link';
    if (button.x + button.width > row.x + row.width + 1) return 'the button leaves the row';
    if (button.y >= url.y + url.height || button.y + button.height <= url.y) return 'the button is not on the link\'s line';
    return 'beside';
  };
  await expect.poll(layout).toBe('beside');
  await screenshot(modal, { path: `test-results/screens/invite-link-${appLocale}.png` });
});
