/**
 * Providers down or in maintenance (ADR 0013), end to end: a member has the transfer modal open
 * when the sandbox provider of Super Slot goes down (its fault switch); the calls that fail mark
 * it down, so the transfer is refused with the catalogue's text and no money moves, and the card
 * says "temporarily unavailable". Then a manager, in the back office at 1366×768, sees it down
 * and sets Sexy Game into maintenance with a reason and a planned end; the member's card shows
 * "maintenance until …" on the next load. The games used here are used by no other spec.
 */
import type { APIRequestContext } from '@playwright/test';
import { createMember, paoOps, setRegisterOtp } from './support/backend';
import { expect, expectAccessible, expectNoCspViolations, test, watchCsp, screenshot } from './support/fixtures';
import { openHome } from './support/flows';
import { enrolledStaff, openBackOffice } from './support/staff';

const HEADERS = { 'X-Pao-Client': 'wallet' };
const DOWN = { code: 'SUPERSLOT', name: 'Super Slot' };
const MAINTENANCE = { code: 'SEXYGAME', name: 'Sexy Game' };
const shot = (name: string) => `test-results/screens/provider-maintenance-${name}-${test.info().project.name}.png`;

type Slot = { code: string; providerState: string };

async function memberApi(request: APIRequestContext, phone: string, password: string) {
  const login = await request.post('/api/login', { headers: HEADERS, data: { username: phone, password } });
  const { token } = (await login.json()) as { token: string };
  const headers = { ...HEADERS, Authorization: `Bearer ${token}` };
  return {
    get: (path: string) => request.get(path, { headers }),
    walletAmount: async () => ((await (await request.get('/api/wallet', { headers })).json()) as { wallet: { amount: number } }).wallet.amount,
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

test('a provider down or in maintenance shows on the card and refuses transfers before money moves', async ({ page, request, browser, t, baseURL, appLocale }) => {
  // Two `pao ops` runs (the deposit, the staff member) and two apps: longer than one screen.
  test.setTimeout(180_000);
  await setRegisterOtp(request, false);
  const member = await createMember(request);
  paoOps('deposit', member.phone, '500', '--note', 'e2e provider maintenance');
  const api = await memberApi(request, member.phone, member.password);
  expect((await api.get(`/api/wallet/activate/${DOWN.code}`)).status()).toBe(200);
  const manager = await enrolledStaff(request, 'manager');
  try {
    await openHome(page, t, member);

    // The member starts a transfer to Super Slot while it is still up…
    await page.getByRole('button', { name: t('transfer.open') }).click();
    const transfer = page.getByRole('dialog', { name: t('transfer.title') });
    await transfer.getByLabel(t('transfer.from')).selectOption('WALLET');
    await transfer.getByLabel(t('transfer.to')).selectOption(DOWN.code);
    await transfer.getByLabel(t('transfer.amount')).fill('50');

    // …and the provider goes down: its calls fail (the balance refreshes of any page load)
    // until Pao's health tracker marks it down.
    const armed = await request.post('/sandbox/games/faults', { data: { brand: DOWN.code, operation: 'any', mode: 'down' } });
    expect(armed.ok()).toBe(true);
    await expect
      .poll(async () => {
        const slots = ((await (await api.get('/api/wallet/refresh/slot')).json()) as { slots: Slot[] }).slots;
        return slots.find((slot) => slot.code === DOWN.code)?.providerState;
      })
      .toBe('down');

    // Refused with the catalogue's text; nothing moved.
    await transfer.getByRole('button', { name: t('transfer.submit') }).click();
    const refused = page.getByRole('alertdialog', { name: t('common.error') });
    await expect(refused.getByText(t('errorMsg.PROVIDER_UNAVAILABLE'))).toBeVisible();
    await screenshot(page, { path: shot('refused') });
    await refused.getByRole('button', { name: t('common.ok'), exact: true }).click();
    await page.keyboard.press('Escape');
    await expect(transfer).toBeHidden();
    expect(await api.walletAmount()).toBe(500);

    // The card says so (no balance error, no spinner): last known amount, status line.
    const downCard = page.getByRole('button', { name: t('games.cardLabel', { name: DOWN.name, state: t('games.down') }) });
    await expect(downCard).toBeVisible();
    await expect(downCard.getByText(t('games.down'))).toBeVisible();
    await expectAccessible(page, 'home with a provider down');
    await downCard.click(); // a side card comes to the front
    await downCard.scrollIntoViewIfNeeded();
    await screenshot(page, { path: shot('card-down') });

    // The back office, at 1366×768: a manager sees Super Slot's failures (down, or probing again
    // once its cooldown passed: the machine may be slow) and sets Sexy Game into maintenance.
    const office = await browser.newContext({ baseURL, viewport: { width: 1366, height: 768 } });
    const violations = await watchCsp(office);
    const bo = await office.newPage();
    await bo.addInitScript((locale) => localStorage.setItem('locale', locale), appLocale);
    await openBackOffice(bo, t, manager);
    await bo.getByRole('navigation', { name: t('bo.nav.label') }).getByRole('link', { name: t('bo.nav.providers') }).click();
    const table = bo.getByRole('table', { name: t('bo.providers.title') });
    const downRow = table.getByRole('row').filter({ hasText: DOWN.name });
    await expect(downRow.getByText(/HTTP_503/)).toBeVisible();

    const row = table.getByRole('row').filter({ hasText: MAINTENANCE.name });
    await row.getByRole('button', { name: t('bo.providers.setMaintenance') }).click();
    const dialog = bo.getByRole('dialog', { name: t('bo.providers.setTitle', { name: MAINTENANCE.name }) });
    await dialog.getByLabel(t('bo.providers.reason'), { exact: true }).fill('Provider upgrade announced by e-mail');
    const end = new Date(Date.now() + 24 * 3600_000);
    end.setHours(14, 30, 0, 0);
    const local = `${end.getFullYear()}-${pad(end.getMonth() + 1)}-${pad(end.getDate())}T14:30`;
    await dialog.getByLabel(t('bo.providers.plannedEnd'), { exact: true }).fill(local);
    await screenshot(bo, { path: shot('backoffice-dialog') });
    await dialog.getByRole('button', { name: t('bo.providers.setMaintenance') }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByText(t('bo.providers.stateName.maintenance'), { exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: t('bo.providers.endMaintenance') })).toBeVisible();
    await expectAccessible(bo, 'providers');
    await screenshot(bo, { path: shot('backoffice') });
    await office.close();
    expectNoCspViolations(violations);

    // The member's next load shows it, with the planned end in local time.
    await page.reload();
    const until = `${pad(end.getDate())}/${pad(end.getMonth() + 1)}/${end.getFullYear()} 14:30`;
    const card = page.getByRole('button', {
      name: t('games.cardLabel', { name: MAINTENANCE.name, state: t('games.maintenanceUntil', { time: until }) }),
    });
    await expect(card).toBeVisible();
    await card.click();
    const modal = page.getByRole('dialog', { name: MAINTENANCE.name });
    await expect(modal.getByRole('status')).toContainText(t('games.unavailableText'));
    await expect(modal.getByRole('button', { name: t('games.activate') })).toBeDisabled();
    await screenshot(page, { path: shot('card-maintenance') });
  } finally {
    paoOps('providers', 'maintenance', 'off', MAINTENANCE.code);
    await request.delete('/sandbox/games/faults');
  }
});
