/**
 * A seamless game (ADR 0025): the Hub88 card plays from the wallet (no account, no transfer).
 * The member opens a slot from the lobby, spins on the sandbox aggregator's page (each spin a
 * signed bet and win to Pao's Wallet API), and the wallet and the statement follow.
 */
import { createMember, paoOps, setRegisterOtp } from './support/backend';
import { expect, expectAccessible, test, screenshot } from './support/fixtures';
import { openHome } from './support/flows';
import { enrolledStaff, openBackOffice } from './support/staff';

test('play a seamless slot from the wallet; the wallet and statement follow', async ({ page, t, request }) => {
  await setRegisterOtp(request, false);
  const member = await createMember(request);
  paoOps('deposit', member.phone, '500', '--note', 'e2e seamless');
  await openHome(page, t, member);

  // The Hub88 card is the slot ring's last: one step back brings it to the front.
  const slotTitle = t('games.category.slot');
  await page.getByRole('button', { name: t('games.previous', { title: slotTitle }) }).click();
  const card = page.getByRole('button', { name: t('games.cardLabel', { name: 'Hub88', state: t('games.play') }) });
  await expect(card).toContainText('500.00');
  await expect(card).toContainText(t('games.fromWallet'));
  await card.click();

  const modal = page.getByRole('dialog', { name: 'Hub88' });
  await expect(modal).toBeVisible();
  // No account to open, no credentials, no transfer: the games and Play.
  await expect(modal.getByRole('button', { name: t('games.activate') })).toHaveCount(0);
  await expect(modal.getByRole('button', { name: t('games.transferIn') })).toHaveCount(0);
  // The server syncs the aggregator's game list within seconds of starting.
  const play = modal.getByRole('button', { name: t('games.playGame', { name: 'Lucky Reels' }) });
  await expect(play).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page, 'seamless games modal');
  await screenshot(page, { path: `/tmp/games-e2e/shots/seamless-modal-${test.info().project.name}.png` });

  const [game] = await Promise.all([page.waitForEvent('popup'), play.click()]);
  await game.waitForLoadState();
  await expect(game.getByRole('heading', { name: 'Lucky Reels' })).toBeVisible();
  await expect(game.locator('#balance')).toHaveText('500.00');
  await game.getByLabel('Bet').selectOption('1000');
  for (let spin = 0; spin < 2; spin += 1) {
    const before = (await game.locator('#outcome').textContent()) ?? '';
    await game.getByRole('button', { name: 'Spin' }).click();
    await expect(game.locator('#outcome')).not.toHaveText(before);
    await expect(game.locator('#outcome')).toContainText('staked 10.00');
  }
  await screenshot(game, { path: `/tmp/games-e2e/shots/seamless-slot-${test.info().project.name}.png` });
  let after = Number(await game.locator('#balance').textContent());

  // The aggregator's faults, through this real server (its signed calls cross the network):
  // each moves the member's money at most once.
  const launched = new URL(game.url()).searchParams;
  const session = Object.fromEntries(['user', 'token', 'game_code', 'currency'].map((k) => [k, launched.get(k)]));
  for (const fault of ['timeout', 'rollback_first', 'duplicate', 'burst']) {
    const answer = await request.post('/sandbox/hub88/play/round', { data: { ...session, stake: 1000, fault } });
    expect(answer.ok()).toBe(true);
    const round = (await answer.json()) as { balance: number; staked: number; payout: number; log: string[] };
    expect(round.balance, `${fault}: ${round.log.join('; ')}`).toBe(Math.round(after * 100) - round.staked + round.payout);
    expect(round.staked).toBe({ timeout: 0, rollback_first: 0, duplicate: 1000, burst: 10_000 }[fault]);
    after = round.balance / 100;
  }
  await game.close();

  // Closing the modal reloads the wallet: the card shows what the rounds left.
  await modal.getByRole('button', { name: t('common.close') }).click();
  await expect(card).toContainText(after.toFixed(2));

  await page.goto('/user/statement');
  const wallet = t('statement.wallet');
  await expect(page.getByText(t('statement.transfer', { from: wallet, to: 'HUB88' })).first()).toBeVisible();
  await expectAccessible(page, 'statement with seamless stakes');

  // A staff member sees the rounds on the member's page (back office, 1366×768).
  const memberId = Number((launched.get('user') ?? '').slice(1));
  const manager = await enrolledStaff(request, 'manager');
  await page.setViewportSize({ width: 1366, height: 768 });
  await openBackOffice(page, t, manager, `/backoffice/members/${memberId}?tab=seamless`);
  const rounds = page.getByRole('table', { name: t('bo.members.seamless.rounds') });
  await expect(rounds.getByRole('row').filter({ hasText: 'sbx_lucky_reels' }).first()).toBeVisible();
  // Two spins and four faulty rounds, less the one whose bet came after its rollback (refused:
  // no money, no round).
  await expect(rounds.getByRole('row').filter({ hasText: 'sbx_lucky_reels' })).toHaveCount(5);
  await screenshot(page, { path: `/tmp/games-e2e/shots/seamless-backoffice-${test.info().project.name}.png` });
});
