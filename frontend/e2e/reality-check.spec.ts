/**
 * The reality check (issue 33 §4) on a phone, with a moved clock: the member plays (30 baht to a
 * game after logging in), chooses a reminder every 15 minutes on the play-limits page, and when
 * the browser's clock passes 15 minutes of the session a dialog (an alertdialog, focus inside)
 * shows the time logged in and the net result from play since login (a loss of 30.00); Continue
 * closes it, the next one comes 15 minutes later, and "Stop playing" logs out.
 */
import { createMember } from './support/backend';
import { expect, expectAccessible, test, screenshot } from './support/fixtures';
import { openHome } from './support/flows';

const SHOTS = 'test-results/screens';
const PLAYER = { 'X-Pao-Client': 'wallet' };

test('a reminder every 15 minutes shows the time and the net result since login', async ({ page, request, t }) => {
  await page.clock.install();
  const member = await createMember(request);
  await openHome(page, t, member);
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const asMember = { ...PLAYER, Authorization: `Bearer ${token ?? ''}` };
  // 100 in by TrueMoney (not play), then 30 to a game (play): a net result of -30.
  const minted = await request.post('/sandbox/truemoney/vouchers', { data: { amount: 100 } });
  const { link } = (await minted.json()) as { link: string };
  expect((await request.post('/api/wallet/truelink', { headers: asMember, data: { link } })).status()).toBe(200);
  expect((await request.get('/api/wallet/activate/JOKER', { headers: asMember })).status()).toBe(200);
  const moved = await request.post('/api/wallet/transfer', {
    headers: { ...asMember, 'Idempotency-Key': `e2e-reality-${member.phone}` },
    data: { from: 'WALLET', to: 'JOKER', amount: 30 },
  });
  expect(moved.status(), await moved.text()).toBe(200);

  await page.getByRole('link', { name: t('nav.profile') }).click();
  await page.getByRole('link', { name: t('protection.title') }).click();
  const form = page.getByRole('region', { name: t('reality.formTitle') });
  await form.getByLabel(t('reality.every')).selectOption({ label: t('reality.minutes', { count: 15 }) });
  await form.getByRole('button', { name: t('reality.save') }).click();
  await expect(page.getByText(t('reality.saved', { count: 15 }))).toBeVisible();
  await screenshot(form, { path: `${SHOTS}/reality-check-form.png` });
  await page.getByRole('link', { name: t('nav.home') }).click();

  // Not before its time.
  await page.clock.fastForward('14:00');
  const dialog = page.getByRole('alertdialog', { name: t('reality.title') });
  await expect(dialog).toHaveCount(0);
  await page.clock.fastForward('01:10');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(t('reality.time', { hours: 0, minutes: 15 }));
  await expect(dialog).toContainText(t('reality.lost', { amount: '30.00' }));
  await expect(dialog.getByRole('link', { name: t('reality.limitsLink') })).toBeVisible();
  // A modal dialog: focus is inside it (the page behind is inert), on its main action, not on
  // the close button (React's autoFocus never reached an element of a closed dialog).
  await expect(dialog.getByRole('button', { name: t('reality.continue') })).toBeFocused();
  await expectAccessible(page, 'reality check');
  await screenshot(page, { path: `${SHOTS}/reality-check.png` });

  await dialog.getByRole('button', { name: t('reality.continue') }).click();
  await expect(dialog).toHaveCount(0);
  await page.clock.fastForward('15:00');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(t('reality.time', { hours: 0, minutes: 30 }));
  await dialog.getByRole('button', { name: t('reality.stop') }).click();
  await expect(page).toHaveURL(/\/login/);
});
