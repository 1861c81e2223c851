/**
 * Support chat (issue 7): a member and an agent exchange text and an image in real time, the
 * history survives a reload, and a visitor chats as a guest. The agent is a support staff member
 * made with `pao ops agent add` (with a known TOTP secret): its first login at /agent enrols the
 * authenticator and asks for a code. The widget is switched on with `pao ops settings set
 * enableChatWidget`.
 */
import type { Browser, Page } from '@playwright/test';
import { createMember, freshPhone, paoOps, setChatBot } from './support/backend';
import { expect, expectAccessible, expectNoCspViolations, test, tr, watchCsp, type Locale, screenshot } from './support/fixtures';
import { acceptAgreementIfShown, loginViaUi } from './support/flows';
import { newTotpSecret, totpCode } from './support/totp';

// A 48×48 gold PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAADAAAAAwCAIAAADYYG7QAAAAOklEQVR42u3OMQ0AAAgDsMnB/4cyXlwQjiYV0EzXKxESEhISEhISEhISEhISEhISEhISEhISEhISurPa6pjxXhtdTwAAAABJRU5ErkJggg==',
  'base64',
);
const AGENT_PASSWORD = 'agent-e2e-pass';

type Agent = { login: string; name: string; secret: string };

function addAgent(): Agent {
  const agent = { login: `ag${freshPhone()}`, name: 'Admin E2E', secret: newTotpSecret() };
  paoOps(
    'agent',
    'add',
    agent.login,
    ...['--password', AGENT_PASSWORD, '--name', agent.name, '--totp-secret', agent.secret],
  );
  return agent;
}

test.beforeAll(() => {
  paoOps('settings', 'set', 'enableChatWidget', 'true');
});

async function openWidget(page: Page, locale: Locale) {
  await page.getByRole('button', { name: tr(locale, 'chat.open') }).click();
  const panel = page.getByRole('region', { name: tr(locale, 'chat.title') });
  await expect(panel).toBeVisible();
  await expect(panel.getByText(tr(locale, 'chat.connecting'))).toBeHidden();
  return panel;
}

// The agent's own browser context is not the fixture's: its CSP violations are kept here.
const inboxViolations = new WeakMap<Page, string[]>();

async function agentPage(browser: Browser, locale: Locale, agent: Agent): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const violations = await watchCsp(context);
  const page = await context.newPage();
  inboxViolations.set(page, violations);
  await page.addInitScript((l) => localStorage.setItem('locale', l), locale);
  await page.goto('/agent');
  await page.getByLabel(tr(locale, 'agent.username')).fill(agent.login);
  await page.getByLabel(tr(locale, 'agent.password'), { exact: true }).fill(AGENT_PASSWORD);
  await page.getByRole('button', { name: tr(locale, 'agent.login') }).click();
  // First login: the enrolment (QR and key), then the authenticator's first code.
  await expect(page.getByRole('heading', { name: tr(locale, 'agent.enrolTitle') })).toBeVisible();
  await expect(page.getByRole('img', { name: tr(locale, 'agent.qrAlt') })).toBeVisible();
  await expect(page.getByText(agent.secret)).toBeVisible();
  await page.getByLabel(tr(locale, 'agent.code')).fill(totpCode(agent.secret));
  await page.getByRole('button', { name: tr(locale, 'agent.verify') }).click();
  await expect(page.getByRole('heading', { name: tr(locale, 'agent.inbox') })).toBeVisible();
  await expect(page.getByText(tr(locale, 'agent.online'))).toBeVisible();
  return page;
}

async function closeInbox(inbox: Page): Promise<void> {
  expectNoCspViolations(inboxViolations.get(inbox) ?? []);
  await inbox.context().close();
}

test('@la a member and an agent chat in real time, with an image, and history after reload', async ({
  page,
  browser,
  request,
  appLocale,
  t,
}) => {
  const agent = addAgent();
  const member = await createMember(request);
  await loginViaUi(page, t, member.phone, member.password);
  await acceptAgreementIfShown(page, t);
  await page.goto('/user/contact');
  await expect(page.getByText(t('chat.invite'))).toBeVisible();
  await screenshot(page, { path: `test-results/screens/chat-closed-${appLocale}.png` });
  const panel = await openWidget(page, appLocale);
  await expectAccessible(page, 'member chat open');

  const box = panel.getByRole('textbox', { name: t('chat.message'), exact: true });
  // Blank text is not sendable; Shift+Enter makes a new line instead of sending.
  await box.fill('   ');
  await expect(panel.getByRole('button', { name: t('chat.send') })).toBeDisabled();
  await box.fill('Hello admin');
  await box.press('Shift+Enter');
  await box.pressSequentially('second line');
  await expect(box).toHaveValue('Hello admin\nsecond line');
  await box.press('Enter');
  await expect(box).toHaveValue('');
  const sent = panel.getByRole('listitem').filter({ hasText: 'second line' });
  await expect(sent.getByLabel(t('chat.sent'))).toBeVisible();

  // The agent sees the conversation with its unread count and the message.
  const inbox = await agentPage(browser, appLocale, agent);
  const row = inbox.getByRole('button', { name: new RegExp(member.name) });
  await expect(row).toBeVisible();
  await expect(row.getByLabel(tr(appLocale, 'agent.unread', { count: 1 }))).toBeVisible();
  await row.click();
  const thread = inbox.getByRole('list', { name: tr(appLocale, 'chat.messages') });
  await expect(thread.getByText('Hello admin')).toBeVisible();
  await expectAccessible(inbox, 'agent inbox');

  // Agent → member, live.
  const reply = inbox.getByRole('textbox', { name: tr(appLocale, 'chat.message'), exact: true });
  await reply.fill('Hi, how can I help?');
  await reply.press('Enter');
  await expect(panel.getByText('Hi, how can I help?')).toBeVisible();
  await expect(panel.getByText(agent.name)).toBeVisible();

  // Member → agent: an image, with its upload, delivered live.
  await panel.locator('input[type="file"]').setInputFiles({ name: 'gold.png', mimeType: 'image/png', buffer: PNG });
  await expect(panel.getByRole('img', { name: 'gold.png' })).toBeVisible();
  await expect(thread.getByRole('img', { name: 'gold.png' })).toBeVisible();

  // A file the chat does not take is refused with an alert that goes away after 4 s.
  await panel.locator('input[type="file"]').setInputFiles({ name: 'notes', mimeType: 'text/plain', buffer: Buffer.from('x') });
  const alert = panel.getByRole('alert');
  await expect(alert).toHaveText(t('chat.notSupported'));
  await expect(alert).toBeHidden({ timeout: 6000 });

  // Agent → member: quick replies; the member's choice comes back as text.
  await inbox.getByLabel(tr(appLocale, 'agent.replyKind')).selectOption('quick_replies');
  await inbox.getByLabel(tr(appLocale, 'agent.options')).fill('Deposit\nWithdraw');
  await reply.fill('Which one?');
  await reply.press('Enter');
  await panel.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await expect(thread.getByRole('listitem').filter({ hasText: 'Withdraw', hasNotText: 'Which one?' })).toBeVisible();

  await screenshot(page, { path: `test-results/screens/chat-member-${appLocale}.png` });
  await screenshot(inbox, { path: `test-results/screens/chat-agent-${appLocale}.png` });

  // History after a reload: the texts and the image are still there.
  await page.reload();
  const again = await openWidget(page, appLocale);
  await expect(again.getByText('Hi, how can I help?')).toBeVisible();
  await expect(again.getByRole('img', { name: 'gold.png' })).toBeVisible();
  await inbox.reload();
  await inbox.getByRole('button', { name: new RegExp(member.name) }).click();
  await expect(thread.getByText('Hello admin')).toBeVisible();
  await closeInbox(inbox);
});

test('@en an answer stored before the widget joined its room still shows', async ({ page, request, appLocale, t }) => {
  await setChatBot(request, true);
  try {
    // A slow phone: the socket's handshake waits until the message was sent and answered, so
    // the bot's answer goes to a room nobody has joined yet (and after the first history page).
    let release = () => {};
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/socket\.io\//, async (route) => {
      await answered;
      await route.continue();
    });
    await page.goto('/contact');
    await page.getByRole('button', { name: t('chat.open') }).click();
    const panel = page.getByRole('region', { name: t('chat.title') });
    const box = panel.getByRole('textbox', { name: t('chat.message'), exact: true });
    await box.fill('Hello, anyone there?');
    const sent = page.waitForResponse((response) => response.url().endsWith('/api/chat/send-message'));
    await box.press('Enter');
    expect((await sent).ok()).toBe(true);
    // Sent over HTTP while the panel still says it is connecting.
    await expect(panel.getByText(t('chat.connecting'))).toBeVisible();
    await screenshot(page, { path: `test-results/screens/chat-connecting-${appLocale}.png` });
    release();
    await expect(panel.getByText(t('chat.connecting'))).toBeHidden();
    const bot = panel.getByRole('listitem').filter({ has: page.getByText(t('chat.bot'), { exact: true }) });
    await expect(bot).toBeVisible();
    // Once: the catch-up and any live copy are the same message.
    await expect(panel.getByRole('listitem')).toHaveCount(2);
  } finally {
    await setChatBot(request, false);
  }
});

test('a visitor chats as a guest and keeps its guest id', async ({ page, browser, appLocale, t }) => {
  const agent = addAgent();
  await page.goto('/contact');
  const panel = await openWidget(page, appLocale);
  const guestId = await page.evaluate(() => localStorage.getItem('guest-id'));
  expect(guestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

  const box = panel.getByRole('textbox', { name: t('chat.message'), exact: true });
  await box.fill('Hello from a visitor');
  await box.press('Enter');
  await expect(panel.getByRole('listitem').filter({ hasText: 'Hello from a visitor' }).getByLabel(t('chat.sent'))).toBeVisible();
  await expectAccessible(page, 'guest chat');

  const inbox = await agentPage(browser, appLocale, agent);
  const label = `Guest ${guestId!.slice(0, 4).toUpperCase()}`;
  await inbox.getByRole('button', { name: new RegExp(label) }).click();
  const thread = inbox.getByRole('list', { name: tr(appLocale, 'chat.messages') });
  await expect(thread.getByText('Hello from a visitor')).toBeVisible();
  const reply = inbox.getByRole('textbox', { name: tr(appLocale, 'chat.message'), exact: true });
  await reply.fill('Welcome, visitor');
  await reply.press('Enter');
  await expect(panel.getByText('Welcome, visitor')).toBeVisible();
  await screenshot(page, { path: `test-results/screens/chat-guest-${appLocale}.png` });

  await page.reload();
  expect(await page.evaluate(() => localStorage.getItem('guest-id'))).toBe(guestId);
  const again = await openWidget(page, appLocale);
  await expect(again.getByText('Hello from a visitor')).toBeVisible();
  await expect(again.getByText('Welcome, visitor')).toBeVisible();
  await closeInbox(inbox);
});
