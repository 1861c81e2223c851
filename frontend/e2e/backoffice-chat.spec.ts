/**
 * The support inbox in the back office (en, 1366×768): a member writes in the player app's chat;
 * a support staff member signs in to the back office, finds the conversation among the
 * unassigned ones with its unread count, assigns it to themselves, answers, and the member sees
 * the answer in real time. The member's page (MemberPanel) is shown beside the conversation. axe runs on the
 * inbox; the screenshot goes to test-results/screens/.
 */
import { createMember, paoOps } from './support/backend';
import { expect, expectAccessible, expectNoCspViolations, test, tr, watchCsp, screenshot } from './support/fixtures';
import { acceptAgreementIfShown, loginViaUi } from './support/flows';
import { enrolledStaff, openBackOffice } from './support/staff';

test.use({ appLocale: 'en' });

test.beforeAll(() => {
  paoOps('settings', 'set', 'enableChatWidget', 'true');
});

test('support assigns a member conversation to themselves and answers it live', async ({ page, browser, request, t }) => {
  // The member, in the player app (its own browser context), writes first.
  const member = await createMember(request);
  const memberContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const memberViolations = await watchCsp(memberContext);
  const app = await memberContext.newPage();
  await app.addInitScript(() => localStorage.setItem('locale', 'en'));
  const mt = (key: string, vars?: Record<string, string | number>) => tr('en', key, vars);
  await loginViaUi(app, mt, member.phone, member.password);
  await acceptAgreementIfShown(app, mt);
  await app.goto('/user/contact');
  await app.getByRole('button', { name: mt('chat.open') }).click();
  const widget = app.getByRole('region', { name: mt('chat.title') });
  await expect(widget.getByText(mt('chat.connecting'))).toBeHidden();
  const box = widget.getByRole('textbox', { name: mt('chat.message'), exact: true });
  await box.fill('My deposit has not arrived');
  await box.press('Enter');
  await expect(widget.getByRole('listitem').filter({ hasText: 'My deposit' }).getByLabel(mt('chat.sent'))).toBeVisible();

  // Support signs in to the back office and opens the inbox from the navigation.
  const staff = await enrolledStaff(request, 'support');
  await openBackOffice(page, t, staff);
  await page.getByRole('navigation', { name: t('bo.nav.label') }).getByRole('link', { name: t('bo.nav.chat') }).click();
  await expect(page.getByRole('heading', { name: t('bo.chat.title') })).toBeVisible();
  await expect(page.getByText(t('bo.chat.live'))).toBeVisible();

  // Among the unassigned conversations, with one unread message.
  const list = page.getByRole('navigation', { name: t('bo.chat.conversations') });
  const views = list.getByRole('group', { name: t('bo.chat.view') });
  await views.getByRole('button', { name: t('bo.chat.viewUnassigned') }).click();
  await expect(page).toHaveURL(/view=unassigned/);
  const row = list.getByRole('button', { name: new RegExp(member.name) });
  await expect(row.getByLabel(t('bo.chat.unread', { count: 1 }))).toBeVisible();
  await row.click();
  const conversation = page.getByRole('region', { name: member.name });
  const thread = conversation.getByRole('list', { name: t('chat.messages') });
  await expect(thread.getByText('My deposit has not arrived')).toBeVisible();
  await expect(conversation.getByText(t('bo.chat.unassigned'))).toBeVisible();

  // Assign it to themselves: it leaves the unassigned view and is theirs.
  await conversation.getByRole('button', { name: t('bo.chat.assignToMe') }).click();
  await expect(conversation.getByText(t('bo.chat.assignedToYou'))).toBeVisible();
  await expect(row).toBeHidden();
  await views.getByRole('button', { name: t('bo.chat.viewMine') }).click();
  await expect(list.getByRole('button', { name: new RegExp(member.name) })).toContainText(staff.name);

  // The member's page beside the conversation (the members feature's MemberPanel).
  const side = page.getByRole('complementary', { name: t('bo.chat.member') });
  await expect(side.getByRole('region', { name: t('bo.members.panel', { name: member.name }) })).toBeVisible();
  await expect(side.getByRole('heading', { name: member.name })).toBeVisible();

  // The answer reaches the member live, signed with the staff member's name.
  const reply = conversation.getByRole('textbox', { name: t('chat.message'), exact: true });
  await reply.fill('Let me check that for you');
  await reply.press('Enter');
  await expect(widget.getByText('Let me check that for you')).toBeVisible();
  await expect(widget.getByText(staff.name)).toBeVisible();
  await expect(thread.getByRole('listitem').filter({ hasText: 'Let me check' }).getByLabel(t('chat.sent'))).toBeVisible();

  await expectAccessible(page, 'support inbox');
  await screenshot(page, { path: 'test-results/screens/backoffice-chat-en.png' });
  expectNoCspViolations(memberViolations);
  await memberContext.close();
});
