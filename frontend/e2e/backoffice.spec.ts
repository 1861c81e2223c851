/**
 * The back office at 1366×768, in Thai and English: an owner signs in with a code, sees every
 * screen, filters the audit log (the filter is the URL) and adds a staff member, whose enrolment
 * is shown once, until the session ends on the server; a new staff member enrols at first
 * sign-in; a manager reads the audit log's amounts in baht, picks an action from its list, types
 * days as DD/MM/YYYY and hides the sign-ins; a viewer reads the money screens but finds no action, and the server refuses each one
 * made with their token.
 * Every screen passes axe. Screenshots go to test-results/screens/.
 */
import { expect, expectAccessible, test, type Locale, screenshot } from './support/fixtures';
import { createMember, paoOps } from './support/backend';
import { addStaff, enrolledStaff, enterPassword, openBackOffice, signIn } from './support/staff';
import { totpCode } from './support/totp';

const PLAYER = { 'X-Pao-Client': 'wallet' };
const shot = (name: string, locale: Locale) => `test-results/screens/backoffice-${name}-${locale}.png`;

// Six independent tests, each with its own staff: spread over the workers (each has its own
// backend), not queued on one, which otherwise finishes the run alone.
test.describe.configure({ mode: 'parallel' });

for (const locale of ['th', 'en'] as const) {
  test.describe(`back office (${locale})`, () => {
    test.use({ appLocale: locale });

    test('an owner signs in, filters the audit log and adds a staff member', async ({ page, request, t }) => {
      const owner = await enrolledStaff(request, 'owner');
      await page.goto('/backoffice');
      await expect(page).toHaveURL(/\/backoffice\/login$/);
      await expect(page.getByRole('heading', { name: t('bo.login.title') })).toBeVisible();
      await expectAccessible(page, 'back-office login');
      await screenshot(page, { path: shot('login', locale) });

      await signIn(page, t, owner);
      const nav = page.getByRole('navigation', { name: t('bo.nav.label') });
      for (const item of ['bo.nav.audit', 'bo.nav.staff', 'bo.nav.sessions']) {
        await expect(nav.getByRole('link', { name: t(item) })).toBeVisible();
      }
      await expect(page.getByText(t('bo.top.signedInAs', { name: owner.name, role: t('bo.role.owner') }))).toBeAttached();

      // The audit log: the owner's own sign-in is there, named; filter on an action from the list.
      await nav.getByRole('link', { name: t('bo.nav.audit') }).click();
      await expect(page).toHaveURL(/\/backoffice\/audit$/);
      const table = page.getByRole('table', { name: t('bo.audit.title') });
      await expect(table.getByRole('cell', { name: t('bo.auditAction.auth_login'), exact: true }).first()).toBeVisible();
      await page.getByLabel(t('bo.audit.action'), { exact: true }).selectOption({ label: t('bo.auditAction.staff_create') });
      await page.getByRole('button', { name: t('bo.audit.apply') }).click();
      await expect(page).toHaveURL(/[?&]action=staff\.create/);
      await expect(table.getByRole('cell', { name: t('bo.auditAction.auth_login'), exact: true })).toHaveCount(0);
      await expect(table.getByRole('cell', { name: t('bo.auditAction.staff_create'), exact: true }).first()).toBeVisible();
      await expect(table.getByText(owner.login, { exact: true }).first()).toBeVisible();
      await table.getByRole('button', { name: t('bo.audit.at') }).click();
      await expect(page).toHaveURL(/[?&]sort=at/);
      await expect(table.getByRole('columnheader', { name: t('bo.audit.at') })).toHaveAttribute('aria-sort', 'ascending');
      // The filtered view is a link: opened afresh, it shows the same.
      await page.reload();
      await expect(page.getByLabel(t('bo.audit.action'), { exact: true })).toHaveValue('staff.create');
      await expect(table.getByRole('cell', { name: t('bo.auditAction.staff_create'), exact: true }).first()).toBeVisible();
      await expectAccessible(page, 'audit log');
      await screenshot(page, { path: shot('audit', locale) });

      // Staff: add a cashier; the enrolment is shown once.
      await nav.getByRole('link', { name: t('bo.nav.staff') }).click();
      await page.getByRole('button', { name: t('bo.staff.add') }).click();
      const login = `e2e-new-${Date.now().toString().slice(-7)}`;
      const adding = page.getByRole('dialog', { name: t('bo.staff.add') });
      await adding.getByLabel(t('bo.staff.login'), { exact: true }).fill(login);
      await adding.getByLabel(t('bo.staff.displayName'), { exact: true }).fill('New Cashier');
      await adding.getByLabel(t('bo.staff.role'), { exact: true }).selectOption('cashier');
      await adding.getByLabel(t('bo.staff.password'), { exact: true }).fill('cashier-pass-1');
      await adding.getByRole('button', { name: t('bo.staff.create'), exact: true }).click();
      const enrolment = page.getByRole('dialog', { name: t('bo.staff.enrolmentTitle', { login }) });
      await expect(enrolment.getByRole('img', { name: t('bo.login.qrAlt') })).toBeVisible();
      await expect(enrolment.locator('code')).toHaveText(/^[A-Z2-7 ]{16,}$/);
      await expectAccessible(page, 'staff enrolment');
      await screenshot(page, { path: shot('staff-added', locale) });
      await enrolment.getByRole('button', { name: t('common.close') }).first().click();

      const row = page.getByRole('row').filter({ hasText: login });
      await expect(row.getByText(t('bo.role.cashier'), { exact: true })).toBeVisible();
      await expect(row.getByText(t('bo.staff.pending'), { exact: true })).toBeVisible();
      // Change the role, confirmed in a dialog.
      await row.getByRole('button', { name: t('bo.staff.changeRole') }).click();
      const changing = page.getByRole('dialog', { name: t('bo.staff.changeRoleOf', { name: 'New Cashier' }) });
      await changing.getByLabel(t('bo.staff.role'), { exact: true }).selectOption('viewer');
      await changing.getByRole('button', { name: t('common.save') }).click();
      await expect(changing).toBeHidden();
      await expect(row.getByText(t('bo.role.viewer'), { exact: true })).toBeVisible();
      // Rename: colleagues read the name in the audit log and on decisions; the login stays.
      await row.getByRole('button', { name: t('bo.staff.rename') }).click();
      const renaming = page.getByRole('dialog', { name: t('bo.staff.renameOf', { login }) });
      await renaming.getByLabel(t('bo.staff.displayName'), { exact: true }).fill('Somchai Cashier');
      await renaming.getByRole('button', { name: t('common.save') }).click();
      await expect(renaming).toBeHidden();
      await expect(row.getByText('Somchai Cashier', { exact: true })).toBeVisible();
      await expect(row.getByText(login, { exact: true })).toBeVisible();
      await expectAccessible(page, 'staff');
      await screenshot(page, { path: shot('staff', locale) });

      // The session ends on the server (idle, revoked): the next call's 401 returns to the login.
      const token = await page.evaluate(() => localStorage.getItem('pao-staff-token'));
      const ended = await request.post('/api/backoffice/auth/logout', { headers: { Authorization: `Bearer ${token}` } });
      expect(ended.ok()).toBe(true);
      await page.reload();
      await expect(page).toHaveURL(/\/backoffice\/login$/);
      await expect(page.getByRole('status').filter({ hasText: t('bo.login.ended') })).toBeVisible();
    });

    test('a manager reads amounts in the audit log, picks an action from the list, types days as DD/MM/YYYY and hides sign-ins', async ({ page, request, t }) => {
      // A manual credit of 555 baht by the manager through the API: its audit row carries the amount.
      const manager = await enrolledStaff(request, 'manager');
      const member = await createMember(request);
      const login = await request.post('/api/login', { headers: PLAYER, data: { username: member.phone, password: member.password } });
      const { token: memberToken } = (await login.json()) as { token: string };
      const profile = (await (await request.get('/api/account/profile', { headers: { ...PLAYER, Authorization: `Bearer ${memberToken}` } })).json()) as {
        profile: { _id: number };
      };
      const credited = await request.post(`/api/backoffice/members/${profile.profile._id}/adjustments`, {
        headers: { Authorization: `Bearer ${manager.token}`, 'Idempotency-Key': `e2e-audit-${member.phone}` },
        data: { direction: 'credit', amount: 555, reason: `audit e2e ${member.phone}` },
      });
      expect(credited.status(), await credited.text()).toBe(201);

      await openBackOffice(page, t, manager, '/backoffice/audit');
      const table = page.getByRole('table', { name: t('bo.audit.title') });
      const credit = table.getByRole('row').filter({ hasText: `audit e2e ${member.phone}` });
      // Who: the manager's display name; what: the action's name; the amount in baht, not 55500.
      await expect(credit.getByText(manager.name, { exact: true })).toBeVisible();
      await expect(credit.getByRole('cell', { name: t('bo.auditAction.adjustment_request'), exact: true })).toBeVisible();
      await expect(credit.getByText('555.00 ฿', { exact: true })).toBeVisible();
      await expect(credit.getByText('55500')).toHaveCount(0);
      // The changed fields and the codes they hold by name: "Status: Posted", not "status: POSTED".
      await expect(credit.getByText(t('bo.auditField.amount'), { exact: true })).toBeVisible();
      await expect(credit.getByText(t('bo.labels.status.POSTED'), { exact: true })).toBeVisible();
      await expect(credit.getByText('POSTED', { exact: true })).toHaveCount(0);

      // Sign-ins hidden; days typed as Thai staff write them (a month-first date is refused).
      const today = new Date();
      const dd = String(today.getDate()).padStart(2, '0');
      const mm = String(today.getMonth() + 1).padStart(2, '0');
      const iso = `${today.getFullYear()}-${mm}-${dd}`;
      await page.getByLabel(t('bo.audit.from'), { exact: true }).fill('12/31/2026');
      await page.getByRole('button', { name: t('bo.audit.apply') }).click();
      await expect(page.getByText(t('bo.audit.badDay')).first()).toBeVisible();
      await expect(page).toHaveURL(/\/backoffice\/audit$/);
      await page.getByLabel(t('bo.audit.from'), { exact: true }).fill(`${dd}/${mm}/${today.getFullYear()}`);
      await page.getByLabel(t('bo.audit.hideSignIns'), { exact: true }).check();
      await page.getByRole('button', { name: t('bo.audit.apply') }).click();
      await expect(page).toHaveURL(new RegExp(`[?&]from=${iso}.*hideSignIns=1`));
      await expect(page.getByLabel(t('bo.audit.from'), { exact: true })).toHaveValue(`${dd}/${mm}/${today.getFullYear()}`);
      await expect(credit.getByText('555.00 ฿', { exact: true })).toBeVisible();
      await expect(table.getByRole('cell', { name: t('bo.auditAction.auth_login'), exact: true })).toHaveCount(0);
      await expectAccessible(page, 'audit log, money');
      await screenshot(page, { path: shot('audit-money', locale) });
    });

    test('a new staff member enrols an authenticator at the first sign-in', async ({ page, t }) => {
      const cashier = addStaff('cashier');
      await enterPassword(page, t, cashier);
      await expect(page.getByRole('heading', { name: t('bo.login.enrolTitle') })).toBeVisible();
      await expect(page.getByRole('img', { name: t('bo.login.qrAlt') })).toBeVisible();
      await expect(page.locator('code')).toHaveText(cashier.secret.replace(/(.{4})/g, '$1 ').trim());
      await expectAccessible(page, 'enrolment');
      await screenshot(page, { path: shot('enrol', locale) });

      // A wrong code is refused with the catalogue's text; the right one signs in.
      const wrong = String((Number(totpCode(cashier.secret)) + 1) % 1_000_000).padStart(6, '0');
      await page.getByLabel(t('bo.login.code'), { exact: true }).fill(wrong);
      await page.getByRole('button', { name: t('bo.login.enrolSubmit') }).click();
      await expect(page.getByRole('alert')).toHaveText(t('errorMsg.STAFF_CODE_INVALID'));
      await page.getByLabel(t('bo.login.code'), { exact: true }).fill(totpCode(cashier.secret));
      await page.getByRole('button', { name: t('bo.login.enrolSubmit') }).click();

      // The landing screen is the dashboard; their own sessions list this one, marked.
      await expect(page).toHaveURL(/\/backoffice\/dashboard$/);
      await page.getByRole('navigation', { name: t('bo.nav.label') }).getByRole('link', { name: t('bo.nav.sessions') }).click();
      await expect(page).toHaveURL(/\/backoffice\/sessions$/);
      await expect(page.getByRole('heading', { name: t('bo.sessions.title'), level: 1 })).toBeVisible();
      await expect(page.getByText(t('bo.sessions.current'), { exact: true })).toBeVisible();
      await expectAccessible(page, 'my sessions');
      await screenshot(page, { path: shot('sessions', locale) });
    });

    test('a viewer looks at every money screen, every action is refused, and the session ends on logout', async ({ page, request, t }) => {
      // Something to look at: a member with a pending withdrawal.
      const member = await createMember(request);
      paoOps('deposit', member.phone, '500', '--note', 'e2e viewer');
      const login = await request.post('/api/login', {
        headers: PLAYER,
        data: { username: member.phone, password: member.password },
      });
      const { token: memberToken } = (await login.json()) as { token: string };
      const asked = await request.post('/api/wallet/withdraw', {
        headers: { ...PLAYER, Authorization: `Bearer ${memberToken}`, 'Idempotency-Key': `e2e-viewer-${member.phone}` },
        data: { amount: 200 },
      });
      expect(asked.status(), await asked.text()).toBe(200);
      const { withdrawalId } = (await asked.json()) as { withdrawalId: number };

      const viewer = await enrolledStaff(request, 'viewer');
      await signIn(page, t, viewer);
      const nav = page.getByRole('navigation', { name: t('bo.nav.label') });
      await expect(nav.getByRole('link')).toHaveText(
        ['dashboard', 'reports', 'members', 'withdrawals', 'deposits', 'accounts', 'providers', 'sessions'].map(
          (screen) => t(`bo.nav.${screen}`),
        ),
      );
      // A link to a screen the role may not open lands on one it may (the first: the dashboard).
      await page.goto('/backoffice/staff');
      await expect(page).toHaveURL(/\/backoffice\/dashboard$/);
      await expect(page.getByRole('button', { name: t('bo.staff.add') })).toHaveCount(0);
      await expectAccessible(page, 'viewer dashboard');

      // The withdrawal is there to read, with no claim or decision.
      await nav.getByRole('link', { name: t('bo.nav.withdrawals') }).click();
      await page.getByRole('button', { name: t('bo.withdrawals.openOf', { id: withdrawalId }) }).click();
      const panel = page.getByRole('complementary', { name: t('bo.withdrawals.detailTitle', { id: withdrawalId }) });
      await expect(panel.getByText(member.phone)).toBeVisible();
      for (const action of ['claim', 'approvePayout', 'approveManual', 'reject']) {
        await expect(panel.getByRole('button', { name: t(`bo.withdrawals.${action}`), exact: true })).toHaveCount(0);
      }
      await nav.getByRole('link', { name: t('bo.nav.accounts') }).click();
      await expect(page.getByRole('table')).toBeVisible();
      await expect(page.getByRole('button', { name: t('bo.accounts.add') })).toHaveCount(0);
      await expect(page.getByRole('button', { name: t('bo.accounts.edit') })).toHaveCount(0);

      // The server is the authority: the viewer's own token is refused every action.
      const staffToken = await page.evaluate(() => localStorage.getItem('pao-staff-token'));
      const asViewer = { Authorization: `Bearer ${staffToken ?? ''}`, 'Idempotency-Key': `e2e-viewer-act-${withdrawalId}` };
      const memberId = (await (await request.get('/api/account/profile', { headers: { ...PLAYER, Authorization: `Bearer ${memberToken}` } })).json()) as {
        profile: { _id: number };
      };
      const attempts = [
        request.post(`/api/backoffice/withdrawals/${withdrawalId}/claim`, { headers: asViewer }),
        request.post(`/api/backoffice/withdrawals/${withdrawalId}/reject`, { headers: asViewer, data: { reason: 'no' } }),
        request.post(`/api/backoffice/members/${memberId.profile._id}/suspend`, { headers: asViewer, data: { reason: 'no' } }),
        request.post(`/api/backoffice/members/${memberId.profile._id}/adjustments`, {
          headers: asViewer,
          data: { direction: 'credit', amount: 10, reason: 'no' },
        }),
        request.post('/api/backoffice/accounts', { headers: asViewer, data: { kind: 'BANK', code: 'SCB', mode: 'MANUAL', accountNo: '4071234567' } }),
      ];
      for (const refused of await Promise.all(attempts)) {
        expect(refused.status(), refused.url()).toBe(403);
        expect(await refused.json()).toEqual({ message: 'STAFF_FORBIDDEN' });
      }

      await page.getByRole('button', { name: t('bo.top.logout') }).click();
      await expect(page).toHaveURL(/\/backoffice\/login$/);
      await page.goto('/backoffice/sessions');
      await expect(page).toHaveURL(/\/backoffice\/login$/);
    });
  });
}
