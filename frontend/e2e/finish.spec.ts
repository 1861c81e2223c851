/**
 * The player app's finish (issue 17): every control on the main screens and modals is styled (none
 * left in the browser's default grey) and at least 44 px to touch; JOKER launches logged in (the
 * credentials handed to the provider's login page); the promotions hero turns, pauses and swipes;
 * the wheel eases onto the server's slice and reveals the prize (at once under reduced motion).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { createMember, paoOps, setRegisterOtp, type Member } from './support/backend';
import { expect, test, screenshot } from './support/fixtures';
import { openHome } from './support/flows';

type T = (key: string, vars?: Record<string, string | number>) => string;
const HEADERS = { 'X-Pao-Client': 'wallet' };
const MIN_TARGET = 44;

/**
 * What is wrong with the visible controls of the page (or of the open dialog): a button or file
 * control in the browser's own default look (compared with a button whose styles are reverted to
 * the user agent's), and interactive elements smaller than 44×44 px (a check box or radio counts
 * with its label; links inside running text are exempt, WCAG 2.5.8).
 */
async function controlProblems(page: Page, where: string): Promise<string[]> {
  // Measured at rest: a dialog that is still popping in is scaled down.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const problems = await page.evaluate((min) => {
    const root: ParentNode = document.querySelector('dialog[open]:last-of-type') ?? document;
    // The user agent's own look of a button, enabled and disabled.
    const uaLooks = [false, true].map((disabled) => {
      const probe = document.createElement('button');
      probe.style.all = 'revert';
      probe.disabled = disabled;
      probe.textContent = 'probe';
      document.body.append(probe);
      const ua = getComputedStyle(probe);
      const look = { background: ua.backgroundColor, border: `${ua.borderTopStyle}|${ua.borderTopColor}` };
      probe.remove();
      return look;
    });
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}"`;
    const shown = (el: Element) => {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      // Visually hidden (1 px, clipped) controls are reached through a visible label or button.
      return box.width > 2 && box.height > 2 && style.visibility !== 'hidden' && el.closest('[aria-hidden="true"]') === null;
    };
    const out: string[] = [];
    for (const el of root.querySelectorAll('button, input[type="file"], input[type="submit"], input[type="button"]')) {
      if (!shown(el)) continue;
      const style = getComputedStyle(el);
      if (el instanceof HTMLInputElement && el.type === 'file') out.push(`unstyled file control ${name(el)}`);
      // The browser's grey face, or its outset border, is a button nobody styled.
      else if (
        uaLooks.some(
          (ua) => style.backgroundColor === ua.background || `${style.borderTopStyle}|${style.borderTopColor}` === ua.border,
        )
      )
        out.push(`default-styled ${name(el)}`);
    }
    const interactive = 'button, a[href], select, textarea, input:not([type="hidden"]), [role="tab"], [role="button"]';
    for (const el of root.querySelectorAll(interactive)) {
      if (!shown(el)) continue;
      if (el.tagName === 'A' && el.closest('p, li, .prose') && !el.classList.contains('btn')) continue;
      const target =
        el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio') ? (el.closest('label') ?? el) : el;
      const box = target.getBoundingClientRect();
      if (box.width < min - 0.5 || box.height < min - 0.5)
        out.push(`small target ${Math.round(box.width)}×${Math.round(box.height)} ${name(el)}`);
    }
    return out;
  }, MIN_TARGET);
  return problems.map((problem) => `${where}: ${problem}`);
}

async function apiToken(request: APIRequestContext, member: Member): Promise<string> {
  const response = await request.post('/api/login', {
    data: { username: member.phone, password: member.password },
    headers: HEADERS,
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { token: string }).token;
}

async function dialog(page: Page, name: string) {
  const found = page.getByRole('dialog', { name });
  await expect(found).toBeVisible();
  return found;
}

async function closeDialog(page: Page, t: T) {
  await page.locator('dialog[open]').last().getByRole('button', { name: t('common.close') }).click();
}

test('every control is styled and big enough to touch, on the main screens and modals', async ({
  page,
  request,
  t,
}) => {
  await setRegisterOtp(request, false);
  const problems: string[] = [];
  await page.goto('/login');
  await expect(page.getByRole('button', { name: t('login.submit'), exact: true })).toBeVisible();
  problems.push(...(await controlProblems(page, 'login')));
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: t('register.title') })).toBeVisible();
  problems.push(...(await controlProblems(page, 'register')));

  const member = await createMember(request);
  paoOps('deposit', member.phone, '300', '--note', 'e2e finish');
  await openHome(page, t, member);
  await expect(page.getByRole('heading', { name: t('games.category.slot') })).toBeVisible();
  problems.push(...(await controlProblems(page, 'home')));

  // The deposit modal keeps its height from tab to tab.
  await page.getByRole('button', { name: t('home.deposit'), exact: true }).click();
  const deposit = await dialog(page, t('deposit.title'));
  const tabs = deposit.getByRole('tab');
  await expect(tabs.first()).toBeVisible();
  const heights = new Set<number>();
  for (let i = 0; i < (await tabs.count()); i += 1) {
    await tabs.nth(i).click();
    await expect(tabs.nth(i)).toHaveAttribute('aria-selected', 'true');
    problems.push(...(await controlProblems(page, `deposit tab ${i + 1}`)));
    heights.add(Math.round((await deposit.boundingBox())?.height ?? 0));
  }
  expect([...heights], 'deposit modal height per tab').toHaveLength(1);
  await closeDialog(page, t);

  await page.getByRole('button', { name: t('transfer.open') }).click();
  await dialog(page, t('transfer.title'));
  problems.push(...(await controlProblems(page, 'transfer modal')));
  await closeDialog(page, t);

  // The game account modal: reset asks first.
  await page.getByRole('button', { name: t('games.cardLabel', { name: 'Joker', state: t('games.openAccount') }) }).click();
  const joker = await dialog(page, 'Joker');
  await joker.getByRole('button', { name: t('games.activate') }).click();
  await expect(joker.getByRole('button', { name: t('games.resetPassword') })).toBeVisible();
  problems.push(...(await controlProblems(page, 'game account modal')));
  await joker.getByRole('button', { name: t('games.resetPassword') }).click();
  const confirm = page.getByRole('alertdialog', { name: t('games.resetConfirmTitle') });
  await expect(confirm).toBeVisible();
  problems.push(...(await controlProblems(page, 'reset confirm')));
  await confirm.getByRole('button', { name: t('common.cancel') }).click();
  await closeDialog(page, t);

  for (const [widget, title] of [
    ['home.invite', 'promotions.invite.title'],
    ['home.refund', 'promotions.refund.title'],
  ] as const) {
    await page.getByRole('button', { name: t(widget), exact: true }).click();
    const modal = await dialog(page, t(title));
    // The empty list says so inside its table, under the header.
    await expect(modal.getByRole('table').getByRole('cell', { name: t(title.replace('title', 'empty')) })).toBeVisible();
    problems.push(...(await controlProblems(page, t(title))));
    await closeDialog(page, t);
  }

  for (const [path, heading] of [
    ['/user/bonus', 'promotions.bonus.list'],
    ['/user/statement', 'statement.title'],
    ['/user/profile', 'profile.title'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: t(heading) }).first()).toBeVisible();
    problems.push(...(await controlProblems(page, path)));
  }
  expect(problems).toEqual([]);
});

test('JOKER opens its game logged in with the account of the modal', async ({ page, request, t }) => {
  await setRegisterOtp(request, false);
  const member = await createMember(request);
  const token = await apiToken(request, member);
  const activated = await request.get('/api/wallet/activate/JOKER', { headers: { ...HEADERS, Authorization: `Bearer ${token}` } });
  expect(activated.ok(), await activated.text()).toBe(true);
  await openHome(page, t, member);
  await page.getByRole('button', { name: t('games.cardLabel', { name: 'Joker', state: t('games.viewData') }) }).click();
  const modal = await dialog(page, 'Joker');
  const username = (await modal.locator('.cred-value').first().textContent()) ?? '';
  expect(username).not.toBe('');
  const [game] = await Promise.all([page.waitForEvent('popup'), modal.getByRole('button', { name: t('games.play') }).click()]);
  await expect(game.getByRole('heading', { name: 'JOKER sandbox slot' })).toBeVisible();
  await expect(game.getByText(username, { exact: true })).toBeVisible();
  // The credentials rode in the fragment and left no trace in the address or its history.
  expect(new URL(game.url()).hash).toBe('');
  await game.close();
});

test('the promotions hero turns, pauses, steps and swipes', async ({ page, request, t }) => {
  await setRegisterOtp(request, false);
  await openHome(page, t, await createMember(request));
  const hero = page.getByRole('region', { name: t('home.hero.label') });
  await expect(hero).toHaveAttribute('aria-roledescription', t('home.hero.carousel'));
  const slides = hero.locator('[aria-roledescription]').filter({ has: page.locator('a') });
  const total = await slides.count();
  expect(total).toBeGreaterThan(1);
  const current = (n: number) => hero.getByRole('group', { name: t('home.hero.position', { index: n, total }) });

  // It turns on its own, then holds still once paused.
  await expect(current(1)).toBeVisible();
  await expect(current(2)).toBeVisible({ timeout: 9000 });
  await hero.getByRole('button', { name: t('home.hero.pause') }).click();
  await expect(hero.getByRole('button', { name: t('home.hero.play') })).toBeVisible();
  await hero.getByRole('button', { name: t('home.hero.next') }).click();
  await expect(current(3 > total ? 1 : 3)).toBeVisible();
  await hero.getByRole('button', { name: t('home.hero.previous') }).click();
  await expect(current(2)).toBeVisible();

  // A swipe to the left brings the next one.
  const box = (await hero.locator('.hero-viewport').boundingBox())!;
  await hero.locator('.hero-viewport').evaluate((el, { x, y }) => {
    const touch = (clientX: number) => new Touch({ identifier: 1, target: el, clientX, clientY: y });
    el.dispatchEvent(new TouchEvent('touchstart', { bubbles: true, touches: [touch(x + 120)], changedTouches: [touch(x + 120)] }));
    el.dispatchEvent(new TouchEvent('touchend', { bubbles: true, touches: [], changedTouches: [touch(x + 20)] }));
  }, { x: box.x, y: box.y + box.height / 2 });
  await expect(current(3 > total ? 1 : 3)).toBeVisible();
  // Only the slide shown is reachable.
  await expect(hero.getByRole('link')).toHaveCount(1);

  // Reduced motion: it does not turn by itself.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.reload();
  await expect(page.getByRole('region', { name: t('home.hero.label') }).getByRole('button', { name: t('home.hero.play') })).toBeVisible();
});

/** The colour of the wheel's pixel a little right of the pointer's tip, as [r, g, b]. */
async function pixelUnderPointer(page: Page): Promise<number[]> {
  return page.locator('.wheel-canvas').evaluate((canvas: HTMLCanvasElement) => {
    const ratio = canvas.width / canvas.getBoundingClientRect().width;
    const ctx = canvas.getContext('2d')!;
    const data = ctx.getImageData(Math.round((canvas.width / ratio / 2 + 24) * ratio), Math.round(48 * ratio), 1, 1).data;
    return [data[0] ?? 0, data[1] ?? 0, data[2] ?? 0];
  });
}

function rgbOf(colour: string): number[] {
  const hex = colour.replace('#', '');
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
}

test('the wheel eases onto the server’s slice and reveals the prize', async ({ page, request, t }) => {
  await setRegisterOtp(request, false);
  const member = await createMember(request);
  paoOps('deposit', member.phone, '300', '--note', 'e2e finish wheel'); // 3 coins
  const token = await apiToken(request, member);
  const setup = (await (
    await request.get('/api/spinwheel/setup', { headers: { ...HEADERS, Authorization: `Bearer ${token}` } })
  ).json()) as { slice: { label: string; bgColor: string }[] };
  await openHome(page, t, member);
  await page.goto('/user/spin');
  const spinButton = page.getByRole('button', { name: t('promotions.spin.spinButton', { count: 3 }) });
  await expect(spinButton).toBeEnabled();

  const answer = page.waitForResponse((r) => r.url().endsWith('/api/spinwheel/spin'));
  await spinButton.click();
  const result = (await (await answer).json()) as { result: { index: number; label: string } };
  await expect(page.getByRole('status').filter({ hasText: t('promotions.spin.spinning') })).toBeAttached();
  // The reveal: the prize's name over the stopped wheel, announced, before the dialog.
  const reveal = page.locator('.wheel-reveal-label');
  await expect(reveal).toHaveText(result.result.label, { timeout: 8000 });
  await expect(page.getByRole('status').filter({ hasText: t('promotions.spin.landed', { prize: result.result.label }) })).toBeAttached();
  await expect(page.getByRole('dialog', { name: t('promotions.spin.resultTitle') })).toBeHidden();
  // The slice under the pointer is the server's, lit (its colour under 28 % white).
  const lit = rgbOf(setup.slice[result.result.index]!.bgColor).map((c) => c * 0.72 + 255 * 0.28);
  const seen = await pixelUnderPointer(page);
  seen.forEach((c, i) => expect(Math.abs(c - lit[i]!), `pixel ${seen} vs ${lit}`).toBeLessThan(12));
  await screenshot(page, { path: 'test-results/screens/finish-wheel-reveal.png' });
  const prize = page.getByRole('dialog', { name: t('promotions.spin.resultTitle') });
  await expect(prize.getByText(result.result.label, { exact: true })).toBeVisible();
  await prize.getByRole('button', { name: t('common.ok'), exact: true }).click();

  // Reduced motion: no spin and no burst, the prize at once.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const started = Date.now();
  await page.getByRole('button', { name: t('promotions.spin.spinButton', { count: 2 }) }).click();
  await expect(prize).toBeVisible({ timeout: 2000 });
  expect(Date.now() - started).toBeLessThan(2000);
  await expect(page.locator('.wheel-spark')).toHaveCount(0);
});
