/**
 * Back-office staff for browser tests: each test adds its own staff member with `pao ops staff
 * add` (a fixed TOTP secret), so that no two tests share an account, a session or the last
 * accepted TOTP step (a code logs in once). `enrolled` confirms the authenticator through the
 * API with the previous step's code, so that the browser then signs in with the current one.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { paoOps, randomDigits } from './backend';
import { newTotpSecret, totpCode } from './totp';

export type StaffRole = 'owner' | 'manager' | 'cashier' | 'support' | 'viewer';
export type StaffMember = { login: string; password: string; secret: string; name: string; role: StaffRole };
/** An enrolled staff member, with the session their enrolment through the API started. */
export type EnrolledStaff = StaffMember & { token: string };

type T = (key: string, vars?: Record<string, string | number>) => string;

/** A staff member who has not enrolled yet: their first sign-in shows the enrolment. */
export function addStaff(role: StaffRole): StaffMember {
  const login = `e2e-${role}-${randomDigits(6)}`;
  const staff = { login, password: 'staff-e2e-pass', secret: newTotpSecret(), name: `E2E ${role} ${login.slice(-4)}`, role };
  paoOps('staff', 'add', login, '--role', role, '--password', staff.password, '--name', staff.name, '--totp-secret', staff.secret);
  return staff;
}

/** A staff member whose authenticator is confirmed: their sign-in asks for a code. */
export async function enrolledStaff(request: APIRequestContext, role: StaffRole): Promise<EnrolledStaff> {
  const staff = addStaff(role);
  const step = await request.post('/api/backoffice/auth/login', { data: { login: staff.login, password: staff.password } });
  expect(step.status(), await step.text()).toBe(200);
  const { ticket } = (await step.json()) as { ticket: string };
  const code = totpCode(staff.secret, Date.now() - 30_000);
  const started = await request.post('/api/backoffice/auth/totp', { data: { ticket, code } });
  expect(started.status(), await started.text()).toBe(200);
  const { token } = (await started.json()) as { token: string };
  return { ...staff, token };
}

/** The password step of the back office's login screen. */
export async function enterPassword(page: Page, t: T, staff: StaffMember): Promise<void> {
  await page.goto('/backoffice/login');
  await page.getByLabel(t('bo.login.login'), { exact: true }).fill(staff.login);
  await page.getByLabel(t('bo.login.password'), { exact: true }).fill(staff.password);
  await page.getByRole('button', { name: t('bo.login.submit') }).click();
}

/**
 * Opens the back office in the session `enrolledStaff` started, as a browser that signed in
 * before would (its token in localStorage), and waits for the navigation. The sign-in screens
 * themselves are backoffice.spec.ts's (signIn, in th and en). The token is put there once per
 * tab: a reload after a logout finds none.
 */
export async function openBackOffice(page: Page, t: T, staff: EnrolledStaff, path = '/backoffice'): Promise<void> {
  await page.addInitScript((token) => {
    const seeded = `e2e-seeded-${token}`;
    if (sessionStorage.getItem(seeded)) return;
    sessionStorage.setItem(seeded, '1');
    localStorage.setItem('pao-staff-token', token);
  }, staff.token);
  await page.goto(path);
  await expect(page.getByRole('navigation', { name: t('bo.nav.label') })).toBeVisible();
}

/** Signs an enrolled staff member in: password, then the authenticator's current code. */
export async function signIn(page: Page, t: T, staff: StaffMember): Promise<void> {
  await enterPassword(page, t, staff);
  await expect(page.getByRole('heading', { name: t('bo.login.codeTitle') })).toBeVisible();
  await page.getByLabel(t('bo.login.code'), { exact: true }).fill(totpCode(staff.secret));
  await page.getByRole('button', { name: t('bo.login.verify'), exact: true }).click();
  await expect(page.getByRole('navigation', { name: t('bo.nav.label') })).toBeVisible();
}
