/**
 * The prize wheel editor, in English at 1366×768: a manager changes the demo wheel's weights and
 * sees each slice's probability and the expected payout per spin follow as they type, renames the
 * prize of a slice a player has a coupon of (its HTML description previewed as sanitised), saves,
 * and the player in another browser (phone) sees the new odds and the new prize name on the spin
 * page; weights summing to zero are refused with an error and change nothing. The demo wheel is
 * put back as it was at the end (promotions.spec.ts reads its odds on the same backend).
 */
import type { APIRequestContext } from '@playwright/test';
import { createMember } from './support/backend';
import { expect, expectAccessible, test, tr, screenshot } from './support/fixtures';
import { openHome } from './support/flows';
import { enrolledStaff, openBackOffice } from './support/staff';

const shot = (name: string) => `test-results/screens/backoffice-wheel-${name}-en.png`;
const URL = '/api/backoffice/wheel';
const PLAYER = { 'X-Pao-Client': 'wallet' };

type Wheel = {
  name: Record<string, string>;
  slices: (Record<string, unknown> & { id: number; weight: number; prizeAmount: number })[];
  coinRules: Record<string, unknown>;
};

async function restore(request: APIRequestContext, token: string, wheel: Wheel): Promise<void> {
  const body = {
    name: wheel.name,
    slices: wheel.slices.map(({ id, label, bgColor, textColor, weight, prizeType, prizeAmount, prizeName, htmlDescription }) => ({
      id,
      label,
      bgColor,
      textColor,
      weight,
      prizeType,
      prizeAmount,
      prizeName,
      htmlDescription,
    })),
    coinRules: wheel.coinRules,
  };
  const put = await request.put(URL, { headers: { Authorization: `Bearer ${token}` }, data: body });
  expect(put.status(), await put.text()).toBe(200);
}

test.use({ appLocale: 'en' });

test('a manager changes the weights, the player sees the new odds; zero weights are refused', async ({ page, request, browser, t, baseURL }) => {
  const manager = await enrolledStaff(request, 'manager');
  await openBackOffice(page, t, manager);
  const token = (await page.evaluate(() => localStorage.getItem('pao-staff-token'))) ?? '';
  const original = (await (await request.get(URL, { headers: { Authorization: `Bearer ${token}` } })).json()) as Wheel;
  // A player with a coupon: a 2,000 baht deposit (a TrueMoney gift voucher of the sandbox) earns
  // 20 coins, spun until a prize slice comes up (more than half do).
  const member = await createMember(request);
  const login = await request.post('/api/login', { headers: PLAYER, data: { username: member.phone, password: member.password } });
  const auth = { ...PLAYER, Authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const voucher = await request.post('/sandbox/truemoney/vouchers', { data: { amount: 2000 } });
  const deposited = await request.post('/api/wallet/truelink', { headers: auth, data: { link: ((await voucher.json()) as { link: string }).link } });
  expect(deposited.status(), await deposited.text()).toBe(200);
  let won = { index: -1, coupon: null as string | null };
  for (let spins = 0; spins < 20 && !won.coupon; spins += 1) {
    const spin = await request.post('/api/spinwheel/spin', { headers: auth });
    expect(spin.status(), await spin.text()).toBe(200);
    won = ((await spin.json()) as { result: typeof won }).result;
  }
  expect(won.coupon).toBeTruthy();
  const prized = won.index + 1;
  const prizeName = `Lucky prize ${Date.now().toString(36).slice(-5)}`;

  try {
    await page.getByRole('navigation', { name: t('bo.nav.label') }).getByRole('link', { name: t('bo.nav.wheel') }).click();
    await expect(page.getByRole('heading', { name: t('bo.wheel.title') })).toBeVisible();
    const weight = (n: number) => page.getByLabel(t('bo.wheel.weightOf', { n }), { exact: true });
    const chance = (n: number) => page.getByRole('cell', { name: t('bo.wheel.probabilityOf', { n }) });
    const payout = page.getByTestId('expected-payout');
    // The demo wheel: 10 ฿ and "try again" at 30 each out of 100; 23.50 baht a spin.
    await expect(weight(1)).toHaveValue('30');
    await expect(chance(1)).toHaveText('30.0%');
    await expect(payout).toHaveText('23.50');

    await weight(1).fill('60');
    await weight(2).fill('0');
    await expect(chance(1)).toHaveText('60.0%');
    await expect(chance(2)).toHaveText('0.0%');
    await expect(payout).toHaveText('26.50'); // 0.6 × 10 + 0.15 × 50 + 0.08 × 100 + 0.01 × 500
    await screenshot(page, { path: shot('edited') });

    // The won slice's prize gets a new name; its description is previewed as players would get it.
    const inEnglish = (field: string) => t('bo.settingsEditor.fieldIn', { field, lang: t('bo.settingsEditor.lang.en') });
    await page.getByRole('button', { name: t('bo.wheel.detailsOf', { n: prized }) }).click();
    await page.getByLabel(inEnglish(t('bo.wheel.prizeNameOf', { n: prized })), { exact: true }).fill(prizeName);
    const description = inEnglish(t('bo.wheel.descriptionOf', { n: prized }));
    await page.getByLabel(description, { exact: true }).fill('<p>You won <b>a prize</b><script>alert(1)</script></p>');
    await expect(page.getByRole('region', { name: t('bo.settingsEditor.preview', { field: description }) })).toHaveText('You won a prize');
    await expectAccessible(page, 'wheel editor');
    await screenshot(page, { path: shot('prize-details') });
    await page.getByRole('button', { name: t('bo.wheel.save') }).click();
    const confirm = page.getByRole('dialog', { name: t('bo.wheel.confirmTitle') });
    await confirm.getByRole('button', { name: t('bo.wheel.save') }).click();
    await expect(page.getByRole('status').filter({ hasText: t('bo.wheel.saved', { payout: '26.50' }) })).toBeVisible();

    // A player, in a browser of their own, sees the new odds at once.
    const player = await browser.newContext({ baseURL, viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, hasTouch: true });
    const phone = await player.newPage();
    await phone.addInitScript(() => localStorage.setItem('locale', 'en'));
    const te = (key: string, vars?: Record<string, string | number>) => tr('en', key, vars);
    await openHome(phone, te, member);
    await phone.goto('/user/spin');
    await expect(phone.getByRole('heading', { name: te('promotions.spin.odds') })).toBeVisible();
    await expect(phone.getByRole('row', { name: '10 ฿ 60.0%' })).toBeVisible();
    await screenshot(phone, { path: shot('player-odds') });
    const coupons = phone.getByRole('region', { name: te('promotions.spin.coupons') });
    await expect(coupons.getByText(prizeName, { exact: true })).toBeVisible();
    await coupons.scrollIntoViewIfNeeded();
    await screenshot(phone, { path: shot('player-coupons') });
    await player.close();

    // Weights summing to zero: an error, and nothing changes.
    for (let n = 1; n <= original.slices.length; n += 1) await weight(n).fill('0');
    await expect(page.getByRole('alert').filter({ hasText: t('bo.wheel.zeroWeights') })).toBeVisible();
    await page.getByRole('button', { name: t('bo.wheel.save') }).click();
    await confirm.getByRole('button', { name: t('bo.wheel.save') }).click();
    await expect(page.getByRole('alert').filter({ hasText: tr('en', 'errorMsg.WHEEL_WEIGHTS_ZERO') })).toBeVisible();
    await screenshot(page, { path: shot('zero-refused') });
    await page.reload();
    await expect(weight(1)).toHaveValue('60');
    await expect(chance(1)).toHaveText('60.0%');
  } finally {
    await restore(request, token, original);
  }
});
