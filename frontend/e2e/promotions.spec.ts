/**
 * Promotions in the browser: activate and end a bonus, redeem a promotion code, receive invite
 * money, receive refund money, spin the wheel and claim a coupon. Money arrives through
 * `pao ops deposit`; game play (turnover, losses) happens at the sandbox game provider, the same
 * way a member plays a launched game.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { createMember, paoOps, randomDigits, setRegisterOtp, type Member } from './support/backend';
import { expect, expectAccessible, test, type Locale, screenshot } from './support/fixtures';
import { openHome } from './support/flows';

type T = (key: string, vars?: Record<string, string | number>) => string;
// The demo's texts are in each language (backend/src/pao/promotions/demo.py).
const DAILY_BONUS: Record<Locale, string> = { th: 'โบนัสรายวัน 10%', la: 'ໂບນັດປະຈຳວັນ 10%', en: 'Daily 10%' };
const WHEEL: Record<Locale, string> = { th: 'วงล้อนำโชค Pao', la: 'ວົງລໍ້ນຳໂຊກ Pao', en: 'Lucky Pao Wheel' };
const HEADERS = { 'X-Pao-Client': 'wallet' };

function deposit(member: Member, baht: number): void {
  paoOps('deposit', member.phone, String(baht), '--note', 'e2e promotions');
}

async function apiToken(request: APIRequestContext, member: Member): Promise<string> {
  const response = await request.post('/api/login', {
    data: { username: member.phone, password: member.password },
    headers: HEADERS,
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { token: string }).token;
}

async function call(request: APIRequestContext, token: string, method: 'get' | 'post', path: string, data?: unknown) {
  const response = await request[method](path, { headers: { ...HEADERS, Authorization: `Bearer ${token}` }, data });
  expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
  return (await response.json()) as Record<string, unknown>;
}

/**
 * Moves `baht` into the member's JOKER account and plays slot spins at the sandbox provider
 * until `done(turnover, loss)` (minor units) or the balance runs out.
 */
async function playJoker(
  request: APIRequestContext,
  member: Member,
  baht: number,
  done: (turnover: number, loss: number) => boolean,
): Promise<void> {
  const token = await apiToken(request, member);
  await call(request, token, 'get', '/api/wallet/activate/JOKER');
  await call(request, token, 'post', '/api/wallet/transfer', { from: 'WALLET', to: 'JOKER', amount: baht });
  const creds = (await call(request, token, 'get', '/api/wallet/account/JOKER')) as { username: string; password: string };
  const login = await request.post('/sandbox/games/login/JOKER', { form: creds, maxRedirects: 0 });
  const play = /\/sandbox\/games\/play\/([^/?]+)/.exec(login.headers().location ?? '')?.[1];
  expect(play, 'sandbox game session').toBeTruthy();
  let turnover = 0;
  let loss = 0;
  let balance = baht * 100;
  for (let i = 0; i < 3000 && !done(turnover, loss); i += 1) {
    const bet = [50_00, 10_00, 5_00, 1_00].find((b) => b <= balance);
    if (bet === undefined) break;
    const spin = await request.post(`/sandbox/games/play/${play}/spin`, { data: { bet } });
    expect(spin.ok(), await spin.text()).toBe(true);
    const result = (await spin.json()) as { payout: number; balance: number };
    turnover += bet;
    loss += bet - result.payout;
    balance = result.balance;
  }
  // Pao learns the game balance the way the app does: the refresh control.
  await call(request, token, 'get', '/api/wallet/refresh/slot');
}

/** Screens for review (like e2e/screens.spec.ts): test-results/screens/promotions-<name>-<locale>.png */
async function shot(page: Page, name: string, locale: string): Promise<void> {
  await screenshot(page, { path: `test-results/screens/promotions-${name}-${locale}.png` });
}

async function closeDialog(page: Page, t: T): Promise<void> {
  await page.getByRole('alertdialog').getByRole('button', { name: t('common.ok'), exact: true }).click();
  await expect(page.getByRole('alertdialog')).toBeHidden();
}

test.describe('promotions', () => {
  test('activate a bonus, then end it after playing @la', async ({ page, request, t, appLocale }) => {
    const member = await createMember(request);
    deposit(member, 100);
    await openHome(page, t, member);
    await shot(page, 'home', appLocale);
    await page.getByRole('button', { name: t('home.bonus'), exact: true }).click();
    await expect(page).toHaveURL(/\/user\/bonus$/);
    await expect(page.getByRole('heading', { name: t('promotions.bonus.title'), level: 1 })).toBeVisible();
    await expectAccessible(page, 'bonus page');
    await shot(page, 'bonus-page', appLocale);

    // DAILY10: 10 % of the 100 THB deposit.
    await page.getByRole('button', { name: new RegExp(DAILY_BONUS[appLocale]) }).click();
    const modal = page.getByRole('dialog', { name: DAILY_BONUS[appLocale] });
    await expect(modal.getByRole('region', { name: t('promotions.banners') })).toBeVisible();
    await expectAccessible(page, 'bonus modal');
    await shot(page, 'bonus-modal', appLocale);
    await modal.getByRole('button', { name: t('promotions.bonus.receive') }).click();
    await expect(page.getByText(t('promotions.bonus.received', { amount: '10.00' }))).toBeVisible();
    await closeDialog(page, t);
    await expect(page.getByRole('heading', { name: t('promotions.bonus.active') })).toBeVisible();
    await expect(page.getByRole('button', { name: new RegExp(t('promotions.bonus.state.current')) })).toBeVisible();
    await shot(page, 'bonus-active', appLocale);

    // Ending it before playing is refused.
    await page.getByRole('button', { name: t('promotions.bonus.cancel') }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: t('promotions.bonus.cancelConfirm') }).click();
    await expect(page.getByText(t('errorAction.bonusClear.BONUS_CONDITION'))).toBeVisible();
    await closeDialog(page, t);

    // Play the turnover (3 × 110 THB), or lose the balance trying: either ends the bonus.
    await playJoker(request, member, 110, (turnover) => turnover >= 330_00);
    await page.getByRole('button', { name: t('promotions.bonus.cancel') }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: t('promotions.bonus.cancelConfirm') }).click();
    await expect(page.getByRole('alertdialog').getByRole('heading', { name: t('common.saved') })).toBeVisible();
    await closeDialog(page, t);
    await expect(page.getByRole('textbox', { name: t('promotions.promotion.code') })).toBeVisible();
  });

  test('redeem a promotion code', async ({ page, request, t, appLocale }) => {
    const member = await createMember(request);
    await openHome(page, t, member);
    await page.goto('/user/bonus');
    const field = page.getByRole('textbox', { name: t('promotions.promotion.code') });
    await field.fill('nope');
    await expect(field).toHaveValue('NOPE');
    await page.getByRole('button', { name: t('promotions.promotion.search') }).click();
    await expect(page.getByText(t('promotions.promotion.notFound'))).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: t('common.close') }).click();

    await field.fill('free20');
    await page.getByRole('button', { name: t('promotions.promotion.search') }).click();
    const modal = page.getByRole('dialog', { name: t('promotions.promotion.modalTitle', { code: 'FREE20' }) });
    await expect(modal.getByText(t('promotions.promotion.percentFail', { percent: 25 }))).toBeVisible();
    await expectAccessible(page, 'promotion modal');
    await shot(page, 'promotion-modal', appLocale);
    await modal.getByRole('button', { name: t('promotions.bonus.receive') }).click();
    await expect(page.getByText(t('promotions.bonus.received', { amount: '20.00' }))).toBeVisible();
    await closeDialog(page, t);
    await expect(page.getByRole('heading', { name: t('promotions.bonus.active') })).toBeVisible();
  });

  test('receive invite money from an invited friend', async ({ page, request, t, appLocale }) => {
    const inviter = await createMember(request);
    const token = await apiToken(request, inviter);
    const wallet = (await call(request, token, 'get', '/api/wallet')) as { profile: { _id: string } };
    const code = `PR${wallet.profile._id}`;

    // The friend registers from the invite link.
    await setRegisterOtp(request, false);
    const friend: Member = { phone: `09${randomDigits(8)}`, password: 'secret123', name: 'Invited Friend' };
    await page.goto(`/register?code=${code}`);
    await page.getByLabel(t('register.phone'), { exact: true }).fill(friend.phone);
    await page.getByRole('button', { name: t('common.next') }).click();
    await page.getByLabel(t('register.name'), { exact: true }).fill(friend.name);
    await page.getByLabel(t('register.password'), { exact: true }).fill(friend.password);
    await page.getByLabel(t('register.confirmPassword'), { exact: true }).fill(friend.password);
    await expect(page.getByLabel(t('register.inviteCode'), { exact: true })).toHaveValue(code);
    await page.getByRole('button', { name: t('common.next') }).click();
    await page.getByLabel(t('register.bank'), { exact: true }).selectOption('SCB');
    await page.getByLabel(t('register.firstName'), { exact: true }).fill('invited');
    await page.getByLabel(t('register.lastName'), { exact: true }).fill('friend');
    await page.getByLabel(t('register.accountNo'), { exact: true }).fill(randomDigits(10));
    await page.getByRole('button', { name: t('register.submit') }).click();
    await expect(page.getByText(t('register.success')).first()).toBeVisible();
    deposit(friend, 1000); // 5 % → 50 THB for the inviter

    await page.goto('/login');
    await openHome(page, t, inviter);
    await page.getByRole('button', { name: t('home.invite'), exact: true }).click();
    const modal = page.getByRole('dialog', { name: t('promotions.invite.title') });
    await expect(modal.getByText(`/register?code=${code}`)).toBeVisible();
    await expect(modal.getByRole('cell', { name: friend.name })).toBeVisible();
    await expectAccessible(page, 'invite modal');
    await shot(page, 'invite-modal', appLocale);
    await modal.getByRole('button', { name: t('promotions.invite.receive') }).click();
    await expect(page.getByText(t('promotions.invite.receivedToast', { amount: '50.00' }))).toBeVisible();
    await modal.getByRole('button', { name: t('common.close') }).click();
    await expect(page.locator('.balance-amount')).toContainText('50.00');
  });

  test('receive refund money after losing at a game', async ({ page, request, t, appLocale }) => {
    const member = await createMember(request);
    deposit(member, 100);
    await playJoker(request, member, 100, (_turnover, loss) => loss >= 40_00);
    await openHome(page, t, member);
    await page.getByRole('button', { name: t('home.refund'), exact: true }).click();
    const modal = page.getByRole('dialog', { name: t('promotions.refund.title') });
    await expect(modal.getByRole('region', { name: t('promotions.banners') })).toBeVisible();
    await expectAccessible(page, 'refund modal');
    await shot(page, 'refund-modal', appLocale);
    await modal.getByRole('button', { name: t('promotions.refund.receive') }).click();
    await expect(page.getByText(new RegExp(t('promotions.refund.receivedToast', { amount: 'X' }).replace('X', '[\\d.,]+')))).toBeVisible();
    await modal.getByRole('button', { name: t('promotions.refund.addWallet') }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: t('promotions.refund.addWallet') }).click();
    await expect(page.getByText(new RegExp(t('promotions.refund.addedToast', { amount: 'X' }).replace('X', '[\\d.,]+')))).toBeVisible();
    await expect(modal.getByRole('cell').first()).toBeVisible();
  });

  test('spin the wheel and claim a coupon', async ({ page, request, t, appLocale }) => {
    const member = await createMember(request);
    deposit(member, 2000); // 20 coins
    await openHome(page, t, member);
    // The wheel the page shows, in the member's language: the slices' descriptions come from it.
    const setup = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/spinwheel/setup');
    await page.getByRole('button', { name: t('home.spin'), exact: true }).click();
    await expect(page).toHaveURL(/\/user\/spin$/);
    const { slice: slices } = (await (await setup).json()) as { slice: { label: string; htmlDescription: string }[] };
    await expect(page.getByRole('img', { name: new RegExp(WHEEL[appLocale]) })).toBeVisible();
    await expect(page.getByRole('heading', { name: t('promotions.spin.odds') })).toBeVisible();
    await expect(page.getByRole('cell', { name: '30.0%' }).first()).toBeVisible();
    await expectAccessible(page, 'spin page');
    await shot(page, 'spin-page', appLocale);

    // Spin until a credit coupon can be claimed (61 % of spins win one). With reduced motion the
    // prize shows at once: each spin's 4–5 s turn and 1.6 s reveal (a canvas redrawn every
    // frame) cost 6 s and a share of the CPU, up to 20 times; the motion itself is finish.spec.ts's.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const claim = page.getByRole('button', { name: new RegExp(`^${t('promotions.spin.claim')}`) }).first();
    for (let i = 0; i < 20 && !(await claim.isVisible()); i += 1) {
      const spun = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/spinwheel/spin');
      await page.getByRole('button', { name: t('promotions.spin.spinButton', { count: 20 - i }) }).click();
      const { result: won } = (await (await spun).json()) as { result: { index: number } };
      const result = page.getByRole('dialog', { name: t('promotions.spin.resultTitle') });
      await expect(result).toBeVisible({ timeout: 10_000 });
      // Under the prize, the won slice's description (every demo slice has one, as plain paragraphs).
      const description = slices[won.index]?.htmlDescription.replace(/<[^>]+>/g, '').trim() ?? '';
      expect(description).not.toBe('');
      await expect(result.getByText(description)).toBeVisible();
      if (i === 0) await shot(page, 'spin-result', appLocale);
      await result.getByRole('button', { name: t('common.ok'), exact: true }).click();
      await expect(result).toBeHidden();
    }
    await claim.click();
    const confirm = page.getByRole('alertdialog', { name: t('promotions.spin.claimTitle') });
    await confirm.getByRole('button', { name: t('promotions.spin.claim') }).click();
    await expect(page.getByRole('alertdialog', { name: t('common.success') })).toBeVisible();
    await closeDialog(page, t);
    await expect(page.getByText(t('promotions.spin.status.CLAIMED')).first()).toBeVisible();
    await shot(page, 'spin-coupons', appLocale);

    // The prize's description outlives the spin: a coupon's details show its slice's.
    const detailsOf = new RegExp(`^${t('promotions.spin.detailsLabel', { prize: '' }).trim()}`);
    await page.getByRole('button', { name: detailsOf }).first().click();
    const details = page.getByRole('dialog');
    const prize = (await details.getByRole('heading').first().textContent())?.trim() ?? '';
    const text = slices.find((slice) => slice.label === prize)?.htmlDescription.replace(/<[^>]+>/g, '').trim() ?? '';
    expect(text).not.toBe('');
    await expect(details.getByText(text)).toBeVisible();
    await shot(page, 'spin-coupon-details', appLocale);
    await details.getByRole('button', { name: t('common.ok'), exact: true }).click();
    await expect(details).toBeHidden();
  });
});
