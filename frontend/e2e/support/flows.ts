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

/** Logs `member` in and waits for home, its agreement prompt closed. */
export async function openHome(page: Page, t: T, member: Member): Promise<void> {
  await loginViaUi(page, t, member.phone, member.password);
  await expectHome(page, t, member.name);
  await acceptAgreementIfShown(page, t);
}

/** Closes the agreement modal if it opened (it appears 1.5 s after home loads, once). */
export async function acceptAgreementIfShown(page: Page, t: T): Promise<void> {
  const accept = page.getByRole('button', { name: t('agreement.accept') });
  try {
    await accept.waitFor({ state: 'visible', timeout: 4000 });
  } catch {
    return;
  }
  await accept.click();
  await expect(page.getByRole('dialog')).toBeHidden();
}
