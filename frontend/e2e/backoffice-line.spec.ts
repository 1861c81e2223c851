/**
 * LINE in the support inbox (en, 1366×768): support has the inbox open; a tester on the sandbox
 * LINE page (/sandbox/line, playing a LINE user) writes; the conversation appears live, marked
 * "From LINE"; support answers with text and then with quick replies, and each reaches the LINE
 * user (the sandbox's reply and push endpoints, called by Pao's line-bot-sdk), shown on the
 * tester's page, where a quick reply is a chip the user taps to answer.
 */
import { expect, test, screenshot } from './support/fixtures';
import { enrolledStaff, openBackOffice } from './support/staff';

test.use({ appLocale: 'en' });

test('a LINE user writes, support sees it live and answers, the user reads it in LINE', async ({ page, browser, request, t }) => {
  const staff = await enrolledStaff(request, 'support');
  await openBackOffice(page, t, staff);
  await page.getByRole('navigation', { name: t('bo.nav.label') }).getByRole('link', { name: t('bo.nav.chat') }).click();
  await expect(page.getByText(t('bo.chat.live'))).toBeVisible();
  const list = page.getByRole('navigation', { name: t('bo.chat.conversations') });

  // The tester, in a browser context of their own, becomes a new LINE user and writes.
  const name = `Line tester ${Date.now() % 100000}`;
  const lineContext = await browser.newContext({ viewport: { width: 420, height: 800 } });
  const line = await lineContext.newPage();
  await line.goto('/sandbox/line');
  await line.getByLabel('Display name').fill(name);
  await line.getByRole('button', { name: 'Start as a new user' }).click();
  await expect(line.getByRole('status').filter({ hasText: name })).toBeVisible();
  await line.getByLabel('Message', { exact: true }).fill('Is my withdrawal on its way?');
  await line.getByRole('button', { name: 'Send', exact: true }).click();
  const lineChat = line.getByRole('list', { name: 'LINE chat' });
  await expect(lineChat.getByText('Is my withdrawal on its way?')).toBeVisible();

  // Live in the inbox (no reload), marked as a LINE conversation, with its unread message.
  const row = list.getByRole('button', { name: new RegExp(name) });
  await expect(row).toBeVisible();
  await expect(row.getByText(t('bo.chat.fromLine'))).toBeVisible();
  await expect(row.getByLabel(t('bo.chat.unread', { count: 1 }))).toBeVisible();
  await row.click();
  const conversation = page.getByRole('region', { name });
  const thread = conversation.getByRole('list', { name: t('chat.messages') });
  await expect(thread.getByText('Is my withdrawal on its way?')).toBeVisible();

  // The answer goes to LINE: delivered (LINE took it), and on the tester's page.
  const reply = conversation.getByRole('textbox', { name: t('chat.message'), exact: true });
  await reply.fill('Yes, it was paid a minute ago');
  await reply.press('Enter');
  await expect(thread.getByRole('listitem').filter({ hasText: 'Yes, it was paid' }).getByLabel(t('chat.sent'))).toBeVisible();
  const answer = lineChat.getByRole('listitem').filter({ hasText: 'Yes, it was paid a minute ago' });
  await expect(answer).toBeVisible();
  await expect(answer).toContainText('reply');

  // Quick replies: LINE shows them as chips under the text; tapping one answers with its text.
  await conversation.getByLabel(t('agent.replyKind')).selectOption('quick_replies');
  await conversation.getByLabel(t('agent.options')).fill('Yes, thanks\nI need more help');
  await reply.fill('Anything else?');
  await screenshot(page, { path: 'test-results/screens/backoffice-line-quick-replies.png' });
  await reply.press('Enter');
  await expect(thread.getByRole('listitem').filter({ hasText: 'Anything else?' }).getByLabel(t('chat.sent'))).toBeVisible();
  const question = lineChat.getByRole('listitem').filter({ hasText: 'Anything else?' });
  await expect(question.getByRole('button', { name: 'Yes, thanks' })).toBeVisible();
  await question.getByRole('button', { name: 'I need more help' }).click();
  // The member's answer: a message of its own, not the question's disabled chip of that text
  // (which is in the thread from the moment the question is sent).
  await expect(thread.getByRole('paragraph').filter({ hasText: /^I need more help$/ })).toBeVisible();
  // The builder is back to plain text for the next reply.
  await expect(conversation.getByLabel(t('agent.replyKind'))).toHaveValue('text');
  await lineContext.close();
});
