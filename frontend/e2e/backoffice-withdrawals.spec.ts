/**
 * The cashiers' withdrawal queue at 1366×768, in Thai: a cashier has the queue open when a
 * member (registered and funded through the API and `pao ops deposit`) asks for a withdrawal;
 * the row appears without a reload (socket.io's `withdrawals:changed` batch), is announced,
 * highlighted and counted in the tab title. The cashier opens it, claims it and approves it
 * through the sandbox bank: it becomes paid, and the member's statement (player API) shows the
 * withdrawal as a success. Then the cashier's shift: filters kept in the URL, the flags and a
 * clean row approved from the row, "claim next" and the keyboard; and, in English, the idle lock
 * (the password alone unlocks it). The queue passes axe; screenshots go to test-results/screens/.
 */
import type { APIRequestContext } from '@playwright/test';
import { createMember, paoOps, randomDigits, type Member } from './support/backend';
import { expect, expectAccessible, test, screenshot } from './support/fixtures';
import { acceptAgreementIfShown, loginViaUi } from './support/flows';
import { enrolledStaff, openBackOffice } from './support/staff';

const shot = (name: string) => `test-results/screens/backoffice-withdrawals-${name}-th.png`;
const PLAYER = { 'X-Pao-Client': 'wallet' };

async function memberToken(request: APIRequestContext, member: Member): Promise<string> {
  const r = await request.post('/api/login', { headers: PLAYER, data: { username: member.phone, password: member.password } });
  expect(r.status(), await r.text()).toBe(200);
  return ((await r.json()) as { token: string }).token;
}

test.use({ appLocale: 'th' });

/** A holder name no other member has: the queue does not flag it as a linked account. */
function ownHolderName(): string {
  return `E2E ${randomDigits(8)
    .split('')
    .map((d) => 'ABCDEFGHIJ'[Number(d)])
    .join('')}`;
}

async function withdraw(request: APIRequestContext, member: Member, amount: number): Promise<number> {
  const token = await memberToken(request, member);
  const asked = await request.post('/api/wallet/withdraw', {
    headers: { ...PLAYER, Authorization: `Bearer ${token}`, 'Idempotency-Key': `e2e-${member.phone}-${amount}` },
    data: { amount },
  });
  expect(asked.status(), await asked.text()).toBe(200);
  return ((await asked.json()) as { withdrawalId: number }).withdrawalId;
}

async function waitingCount(request: APIRequestContext, token: string): Promise<number> {
  const r = await request.get('/api/backoffice/withdrawals?status=PENDING&limit=1', { headers: { Authorization: `Bearer ${token}` } });
  expect(r.status(), await r.text()).toBe(200);
  return ((await r.json()) as { total: number }).total;
}

test('a cashier sees a new withdrawal live, claims it and pays it through the bank', async ({ page, request, t }) => {
  const cashier = await enrolledStaff(request, 'cashier');
  const member = await createMember(request);
  paoOps('deposit', member.phone, '1000', '--note', 'e2e withdrawals');
  const token = await memberToken(request, member);

  await openBackOffice(page, t, cashier);
  const nav = page.getByRole('navigation', { name: t('bo.nav.label') });
  await nav.getByRole('link', { name: t('bo.nav.withdrawals') }).click();
  await expect(page).toHaveURL(/\/backoffice\/withdrawals$/);
  await expect(page.getByText(t('bo.withdrawals.live'), { exact: true })).toBeVisible();
  const table = page.getByRole('table', { name: t('bo.withdrawals.title') });
  await expect(table.getByText(member.phone)).toHaveCount(0);
  const waiting = await waitingCount(request, cashier.token);

  // The member asks; the row appears in the open queue without a reload.
  const asked = await request.post('/api/wallet/withdraw', {
    headers: { ...PLAYER, Authorization: `Bearer ${token}`, 'Idempotency-Key': `e2e-${member.phone}` },
    data: { amount: 300 },
  });
  expect(asked.status(), await asked.text()).toBe(200);
  const { withdrawalId } = (await asked.json()) as { withdrawalId: number };
  const row = table.getByRole('row').filter({ hasText: member.phone });
  await expect(row).toBeVisible();
  // Screen readers hear it once (the live region), in the batch's one line.
  await expect(page.getByText(t('bo.withdrawals.arrived', { id: withdrawalId, amount: '300.00 THB' }), { exact: true })).toBeAttached();
  await expect(row.getByText(t('bo.withdrawals.status.PENDING'), { exact: true })).toBeVisible();
  // It catches the eye: counted in the tab title, highlighted for a few seconds.
  await expect(page).toHaveTitle(`(${waiting + 1}) ${t('bo.withdrawals.title')}`);
  await expect(row).toHaveClass(/bo-row-new/);
  await screenshot(page, { path: shot('arrived') });
  await expect(row).not.toHaveClass(/bo-row-new/, { timeout: 10_000 });

  // Open the detail beside the queue; claim it.
  await row.getByRole('button', { name: t('bo.withdrawals.openOf', { id: withdrawalId }) }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]open=${withdrawalId}`));
  const panel = page.getByRole('complementary', { name: t('bo.withdrawals.detailTitle', { id: withdrawalId }) });
  await expect(panel.getByText(t('bo.withdrawals.depositsSummary', { count: 1, total: '1,000.00 THB' }))).toBeVisible();
  await panel.getByRole('button', { name: t('bo.withdrawals.claim'), exact: true }).click();
  await expect(panel.getByRole('button', { name: t('bo.withdrawals.approvePayout') })).toBeVisible();
  await expect(row.getByText(cashier.login, { exact: true })).toBeVisible();
  // At 1366 px every column stays in view beside the panel, "claimed by" included.
  const claimedBy = table.getByRole('columnheader', { name: t('bo.withdrawals.claimedBy') });
  await expect(claimedBy).toBeInViewport();
  const wrap = await table.evaluate((el) => {
    const box = el.parentElement as HTMLElement;
    return { scroll: box.scrollWidth, client: box.clientWidth };
  });
  expect(wrap.scroll).toBeLessThanOrEqual(wrap.client);
  await expectAccessible(page, 'withdrawal queue with the detail open');
  await screenshot(page, { path: shot('detail') });

  // Approve through the sandbox bank, confirmed in a dialog.
  await panel.getByRole('button', { name: t('bo.withdrawals.approvePayout') }).click();
  const dialog = page.getByRole('dialog', { name: t('bo.withdrawals.approvePayout') });
  await dialog.getByRole('button', { name: t('bo.withdrawals.approvePayout') }).click();
  await expect(dialog).toBeHidden();
  // Paid: it leaves the pending queue; under "paid" it is there, and so says the panel.
  await expect(row).toHaveCount(0);
  await expect(panel.getByText(t('bo.withdrawals.status.PAID'), { exact: true })).toBeVisible();
  await page.getByLabel(t('bo.withdrawals.statusLabel'), { exact: true }).selectOption('PAID');
  await expect(page).toHaveURL(/[?&]status=PAID/);
  await expect(table.getByRole('row').filter({ hasText: member.phone })).toBeVisible();
  await screenshot(page, { path: shot('paid') });

  // The member's statement says the withdrawal succeeded.
  const statement = await request.post('/api/statement', {
    headers: { ...PLAYER, Authorization: `Bearer ${token}` },
    data: { page: 1, limit: 10 },
  });
  const lines = ((await statement.json()) as { statements: { statementType: string; status: string; amount: number }[] }).statements;
  expect(lines.filter((l) => l.statementType === 'withdraw').map((l) => [l.status, l.amount])).toEqual([['SUCCESS', 300]]);
});

test('the shift: filters in the URL, flags, a clean row approved from the row, claim next and the keyboard', async ({ page, request, t }) => {
  const cashier = await enrolledStaff(request, 'cashier');
  const clean = await createMember(request, 'secret123', ownHolderName());
  const linked = await createMember(request);
  paoOps('deposit', clean.phone, '1000', '--note', 'e2e shift');
  paoOps('deposit', linked.phone, '1000', '--note', 'e2e shift');
  const cleanId = await withdraw(request, clean, 200);
  const linkedId = await withdraw(request, linked, 450);

  // A shared link: the clean member's withdrawals, clean only. The form and the rows say so.
  await openBackOffice(page, t, cashier, `/backoffice/withdrawals?flags=clean&member=${clean.phone}`);
  const table = page.getByRole('table', { name: t('bo.withdrawals.title') });
  const filters = page.getByRole('form', { name: t('bo.withdrawals.filters') });
  await expect(filters.getByLabel(t('bo.withdrawals.filter.flags'))).toHaveValue('clean');
  await expect(filters.getByLabel(t('bo.withdrawals.filter.member'))).toHaveValue(clean.phone);
  const cleanRow = table.getByRole('row').filter({ hasText: clean.phone });
  await expect(cleanRow).toBeVisible();
  await expect(cleanRow.getByText(t('bo.withdrawals.flag.clean'), { exact: true })).toBeVisible();
  await expect(table.getByText(linked.phone)).toHaveCount(0);
  await page.reload();
  await expect(cleanRow).toBeVisible();
  await expect(filters.getByLabel(t('bo.withdrawals.filter.flags'))).toHaveValue('clean');

  // Typed filters are checked before they are sent, then applied on the server, in the URL.
  await filters.getByRole('button', { name: t('bo.withdrawals.filter.clear') }).click();
  await expect(page).toHaveURL(/\/backoffice\/withdrawals$/);
  await filters.getByLabel(t('bo.withdrawals.filter.amountMin')).fill('abc');
  await filters.getByRole('button', { name: t('bo.withdrawals.filter.apply') }).click();
  await expect(filters.getByText(t('bo.withdrawals.filter.problem.amount'))).toBeVisible();
  await expect(page).toHaveURL(/\/backoffice\/withdrawals$/);
  await filters.getByLabel(t('bo.withdrawals.filter.amountMin')).fill('400');
  await filters.getByLabel(t('bo.withdrawals.filter.amountMax')).fill('450');
  await filters.getByLabel(t('bo.withdrawals.filter.bank')).fill('scb');
  await filters.getByRole('button', { name: t('bo.withdrawals.filter.apply') }).click();
  await expect(page).toHaveURL(/amountMin=400&amountMax=450&bank=SCB/);
  const linkedRow = table.getByRole('row').filter({ hasText: linked.phone });
  await expect(linkedRow).toBeVisible();
  await expect(linkedRow.getByText(t('bo.withdrawals.flag.linked'), { exact: true })).toBeVisible();
  await expect(linkedRow.getByRole('button', { name: t('bo.withdrawals.approveRowOf', { id: linkedId }) })).toHaveCount(0);
  await expect(table.getByText(clean.phone)).toHaveCount(0);
  await screenshot(page, { path: shot('filters') });
  await filters.getByRole('button', { name: t('bo.withdrawals.filter.clear') }).click();

  // The keyboard: "?" lists the keys; they never fire while typing in a field.
  await filters.getByLabel(t('bo.withdrawals.filter.member')).fill('j');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await filters.getByLabel(t('bo.withdrawals.filter.member')).fill('');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: t('bo.withdrawals.keys.title') });
  await expect(help.getByText(t('bo.withdrawals.keys.claimNext'))).toBeVisible();
  await screenshot(page, { path: shot('shortcuts') });
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // j moves to the first row, Enter opens it, Escape closes it.
  await page.keyboard.press('j');
  const firstOpen = table.getByRole('button', { name: /#\d+/ }).first();
  await expect(firstOpen).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]open=\d+/);
  await expect(page.getByRole('complementary', { name: /#\d+/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page).not.toHaveURL(/[?&]open=/);

  // The clean one is approved from its row, through the same confirmation and rules.
  await filters.getByLabel(t('bo.withdrawals.filter.member')).fill(clean.phone);
  await filters.getByRole('button', { name: t('bo.withdrawals.filter.apply') }).click();
  await cleanRow.getByRole('button', { name: t('bo.withdrawals.approveRowOf', { id: cleanId }) }).click();
  const confirm = page.getByRole('dialog', { name: t('bo.withdrawals.approvePayout') });
  await confirm.getByRole('button', { name: t('bo.withdrawals.approvePayout') }).click();
  await expect(confirm).toBeHidden();
  await expect(cleanRow).toHaveCount(0);
  await filters.getByRole('button', { name: t('bo.withdrawals.filter.clear') }).click();

  // "Claim next" takes the oldest waiting one nobody holds and opens it; released again here.
  await page.getByRole('button', { name: t('bo.withdrawals.claimNext') }).click();
  await expect(page).toHaveURL(/[?&]open=\d+/);
  const panel = page.getByRole('complementary');
  await expect(panel.getByRole('button', { name: t('bo.withdrawals.release') })).toBeVisible();
  await screenshot(page, { path: shot('claim-next') });
  await panel.getByRole('button', { name: t('bo.withdrawals.release') }).click();
  await expect(panel.getByRole('button', { name: t('bo.withdrawals.claim'), exact: true })).toBeVisible();

  // The sound is muted and stays so after a reload; desktop alerts only after a click.
  const sound = page.getByRole('button', { name: t('bo.withdrawals.sound') });
  await expect(sound).toHaveAttribute('aria-pressed', 'true');
  await sound.click();
  await page.reload();
  await expect(sound).toHaveAttribute('aria-pressed', 'false');
  await page.context().grantPermissions(['notifications']);
  const alerts = page.getByRole('button', { name: t('bo.withdrawals.notify') });
  await expect(alerts).toHaveAttribute('aria-pressed', 'false');
  await alerts.click();
  await expect(alerts).toHaveAttribute('aria-pressed', 'true');
  await expectAccessible(page, 'withdrawal queue with filters and signals');
});

test.describe('idle lock (en)', () => {
  test.use({ appLocale: 'en' });

  test('an idle back office locks and the password alone opens it again', async ({ page, request, t }) => {
    const cashier = await enrolledStaff(request, 'cashier');
    await page.clock.install();
    await openBackOffice(page, t, cashier, '/backoffice/withdrawals?flags=clean');
    await expect(page.getByRole('heading', { name: t('bo.withdrawals.title') })).toBeVisible();

    // Half an hour without a key or a click: the screen locks, and so does the server.
    await page.clock.fastForward('31:00');
    const lock = page.getByRole('heading', { name: t('bo.lock.title') });
    await expect(lock).toBeVisible();
    await expect(page.getByRole('navigation', { name: t('bo.nav.label') })).toHaveCount(0);
    await expect
      .poll(async () => (await request.get('/api/backoffice/me', { headers: { Authorization: `Bearer ${cashier.token}` } })).status())
      .toBe(423);
    await screenshot(page, { path: 'test-results/screens/backoffice-lock-en.png' });
    await expectAccessible(page, 'lock screen');

    // A wrong password is counted; the right one (no code) brings the same page back.
    await page.getByLabel(t('bo.lock.password'), { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: t('bo.lock.unlock') }).click();
    await expect(page.getByText(t('bo.lock.wrong'))).toBeVisible();
    await page.getByLabel(t('bo.lock.password'), { exact: true }).fill(cashier.password);
    await page.getByRole('button', { name: t('bo.lock.unlock') }).click();
    await expect(page.getByRole('navigation', { name: t('bo.nav.label') })).toBeVisible();
    await expect(page).toHaveURL(/\/backoffice\/withdrawals\?flags=clean$/);
    await expect(page.getByRole('heading', { name: t('bo.withdrawals.title') })).toBeVisible();

    // Stepping away: "Lock" at once; a reload keeps it locked.
    await page.getByRole('button', { name: t('bo.top.lock') }).click();
    await expect(lock).toBeVisible();
    await page.reload();
    await expect(lock).toBeVisible();
    await page.getByRole('button', { name: t('bo.lock.signOut') }).click();
    await expect(page.getByRole('heading', { name: t('bo.login.title') })).toBeVisible();
  });
});

test('two members on one phone: the cashier sees the link, why, and both member pages say so', async ({ page, browser, request, t }) => {
  const cashier = await enrolledStaff(request, 'cashier');
  const first = await createMember(request, 'secret123', ownHolderName());
  const second = await createMember(request, 'secret123', ownHolderName());

  // One phone: the first member logs in and out, then the second logs in on it.
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'th-TH' });
  const player = await phone.newPage();
  await loginViaUi(player, t, first.phone, first.password);
  await expect(player).toHaveURL(/\/user\/home$/);
  await acceptAgreementIfShown(player, t);
  await player.getByRole('button', { name: t('nav.logout') }).click();
  await expect(player).toHaveURL(/\/login$/);
  await loginViaUi(player, t, second.phone, second.password);
  await expect(player).toHaveURL(/\/user\/home$/);
  await phone.close();

  paoOps('deposit', second.phone, '1000', '--note', 'e2e linked');
  const id = await withdraw(request, second, 300);

  // The queue flags it (a device link holds by default) and the detail says who and why.
  await openBackOffice(page, t, cashier, `/backoffice/withdrawals?member=${second.phone}`);
  const table = page.getByRole('table');
  const row = table.getByRole('row').filter({ hasText: second.phone });
  await expect(row.getByText(t('bo.withdrawals.flag.linked'), { exact: true })).toBeVisible();
  await row.getByRole('button', { name: new RegExp(`#${id}`) }).click();
  const links = page.getByRole('list', { name: t('bo.links.title') });
  const link = links.getByRole('listitem').filter({ hasText: first.phone });
  await expect(link.getByText(t('bo.links.reason.device'))).toBeVisible();
  await links.scrollIntoViewIfNeeded();
  await screenshot(page, { path: shot('linked') });

  // Its link leads to the first member's page, which lists the second the same way.
  await link.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(first.name);
  const back = page.getByRole('list', { name: t('bo.links.title') }).getByRole('listitem').filter({ hasText: second.phone });
  await expect(back.getByText(t('bo.links.reason.device'))).toBeVisible();
});
