/**
 * LINE notices for a member (phone, th): the member gets a one-time code in the profile and
 * sends it to the operator's Official Account from the sandbox LINE page (a tester playing the
 * member's LINE user); LINE answers that the account is linked; the member turns notices on;
 * after a slip deposit is credited, the "deposit credited" notice arrives in LINE as a push, in
 * the LINE user's language, once.
 */
import { createMember } from './support/backend';
import { expect, test, screenshot } from './support/fixtures';
import { acceptAgreementIfShown, loginViaUi } from './support/flows';
import { sandboxSlip } from './support/slips';

// The Official Account's own words (pao.support.line.linking and .notices), in Thai.
const LINKED = 'เชื่อม LINE กับบัญชีของคุณเรียบร้อยแล้ว';
const DEPOSIT_NOTICE = 'ยอดฝาก 180.00 THB เข้ากระเป๋าของคุณแล้ว';

test('a member links LINE in the profile and gets the deposit credited notice there', async ({ page, browser, request, t }) => {
  const member = await createMember(request);
  await loginViaUi(page, t, member.phone, member.password);
  await expect(page).toHaveURL(/\/user\/home$/);
  await acceptAgreementIfShown(page, t);

  // The profile's LINE card gives a one-time code.
  await page.goto('/user/profile');
  const card = page.getByRole('region', { name: t('profile.line.title') });
  await card.getByRole('button', { name: t('profile.line.getCode') }).click();
  const code = (await card.getByText(/^PAO-[A-Z0-9]{8}$/).textContent()) ?? '';
  expect(code).toMatch(/^PAO-/);

  // The member's LINE, in a browser context of its own: the code sent to the Official Account.
  const name = `Member LINE ${Date.now() % 100000}`;
  const lineContext = await browser.newContext({ viewport: { width: 420, height: 800 } });
  const line = await lineContext.newPage();
  await line.goto('/sandbox/line');
  await line.getByLabel('Display name').fill(name);
  await line.getByLabel('Language').selectOption('th');
  await line.getByRole('button', { name: 'Start as a new user' }).click();
  await expect(line.getByRole('status').filter({ hasText: name })).toBeVisible();
  await line.getByLabel('Message', { exact: true }).fill(code);
  await line.getByRole('button', { name: 'Send', exact: true }).click();
  const lineChat = line.getByRole('list', { name: 'LINE chat' });
  await expect(lineChat.getByText(LINKED)).toBeVisible();

  // Linked in the profile; notices on.
  await page.reload();
  await expect(card.getByText(t('profile.line.linked', { name }))).toBeVisible();
  const notices = card.getByRole('checkbox', { name: t('profile.line.notices') });
  // Off until the member opts in. A click, then the wait for the tick: the box is controlled
  // (the query's data, set by the mutation's onMutate after an awaited cancelQueries), and
  // check() reads its state at once after the click; on a loaded machine that was before the
  // re-render ("did not change its state", once in five full runs).
  await expect(notices).not.toBeChecked();
  await notices.click();
  await expect(notices).toBeChecked();
  await page.reload();
  await expect(notices).toBeChecked();

  // A slip deposit, credited.
  const slip = await sandboxSlip(request, member, 180);
  await page.goto('/user/statement');
  await page.getByRole('button', { name: t('slips.open') }).click();
  const dialog = page.getByRole('dialog', { name: t('slips.tableTitle') });
  await dialog.getByRole('button', { name: t('slips.uploadOpen') }).click();
  await dialog.getByLabel(t('slips.pick')).setInputFiles({ name: 'slip.png', mimeType: 'image/png', buffer: slip });
  await dialog.getByRole('button', { name: t('slips.upload'), exact: true }).click();
  await expect(dialog.getByText(t('slips.credited', { amount: '180.00' }))).toBeVisible();

  // The notice reaches LINE as a push (no reply token belongs to it), once.
  const notice = lineChat.getByRole('listitem').filter({ hasText: DEPOSIT_NOTICE });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('push');
  await screenshot(line, { path: 'test-results/screens/line-notice-deposit.png' });
  await line.reload();
  await expect(lineChat.getByText(LINKED)).toBeVisible();
  await expect(lineChat.getByRole('listitem').filter({ hasText: DEPOSIT_NOTICE })).toHaveCount(1);
  await lineContext.close();
});
