/** Steps several tests share, written as a member would do them (roles and visible labels). */
import { expect, type Page } from '@playwright/test';
import type { Member } from './backend';

type T = (key: string, vars?: Record<string, string | number>) => string;

export async function loginViaUi(page: Page, t: T, phone: string, password: string): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByLabel(t('login.phone'), { exact: true }).fill(phone);
  await page.getByLabel(t('login.password'), { exact: true }).fill(password);
  await page.getByRole('button', { name: t('login.submit'), exact: true }).click();
}

export async function expectHome(page: Page, t: T, name: string): Promise<void> {
  await expect(page).toHaveURL(/\/user\/home$/);
  await expect(page.getByText(t('home.hello', { name }))).toBeVisible();
  await expect(page.getByRole('heading', { name: t('home.totalBalance') })).toBeVisible();
}

/**
 * Opens home as `member`, the agreement accepted: logged in through the API and the token put
 * where the login screen's 'remember me' puts it, as a browser that logged in before would have
 * it. The login screen and the agreement prompt themselves are main-flow.spec.ts's (every
 * language), errors.spec.ts's and guard.spec.ts's. The token is put there once per tab: a
 * reload after a logout finds none.
 */
export async function openHome(page: Page, t: T, member: Member): Promise<void> {
  const headers = { 'X-Pao-Client': 'wallet' };
  const login = await page.request.post('/api/login', {
    headers,
    data: { username: member.phone, password: member.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const { token } = (await login.json()) as { token: string };
  const agreed = await page.request.put('/api/account/agreement', {
    headers: { ...headers, Authorization: `Bearer ${token}` },
  });
  expect(agreed.ok(), await agreed.text()).toBe(true);
  await page.addInitScript((session) => {
    const seeded = `e2e-seeded-${session}`;
    if (sessionStorage.getItem(seeded)) return;
    sessionStorage.setItem(seeded, '1');
    localStorage.setItem('token', session);
    localStorage.setItem('remember-agreement', 'true');
  }, token);
  await page.goto('/user/home');
  await expectHome(page, t, member.name);
}

/**
 * Accepts the agreement prompt when the app is going to open it on home (1.5 s after home
 * loads, once), and returns at once when it is not. Which of the two is decided as
 * use-agreement-prompt.ts decides it (remembered in 'remember-agreement', else the member's
 * answer on the server), read from the page: waiting 4 s for a prompt that never came was a
 * fixed sleep in every test whose member had already accepted.
 */
export async function acceptAgreementIfShown(page: Page, t: T): Promise<void> {
  // Home, where the prompt opens; the login has stored the token by then.
  await expect(page).toHaveURL(/\/user\/home$/);
  const pending = await page.evaluate(async (): Promise<boolean> => {
    if (localStorage.getItem('remember-agreement') === 'true') return false;
    const token = localStorage.getItem('token') ?? sessionStorage.getItem('token');
    if (!token) return false;
    const answer = await fetch('/api/account/agreement', {
      headers: { 'X-Pao-Client': 'wallet', Authorization: `Bearer ${token}` },
    });
    // The app skips the prompt when its own check fails; so does this.
    if (!answer.ok) return false;
    return !((await answer.json()) as { accepted: boolean }).accepted;
  });
  if (!pending) return;
  const accept = page.getByRole('button', { name: t('agreement.accept') });
  await expect(accept).toBeVisible();
  await accept.click();
  await expect(page.getByRole('dialog')).toBeHidden();
}
