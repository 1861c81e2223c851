/**
 * TrueMoney gift link end to end: mint a gift link on the sandbox TrueMoney page (another tab),
 * paste it in the deposit modal, the wallet is credited; the same link again is refused.
 */
import { createMember } from './support/backend';
import { expect, expectAccessible, test, screenshot } from './support/fixtures';
import { acceptAgreementIfShown, loginViaUi } from './support/flows';

test('gift link from the sandbox TrueMoney credits the wallet once @en', async ({
  page,
  context,
  request,
  t,
}) => {
  const member = await createMember(request);
  await loginViaUi(page, t, member.phone, member.password);
  await expect(page).toHaveURL(/\/user\/home$/);
  await acceptAgreementIfShown(page, t);

  const truemoney = await context.newPage();
  await truemoney.goto('/sandbox/truemoney');
  await truemoney.getByLabel('Amount (baht)').fill('50');
  await truemoney.getByRole('button', { name: 'Create gift link' }).click();
  const output = truemoney.getByRole('status');
  await expect(output).toContainText('https://gift.truemoney.com/campaign/?v=');
  await expectAccessible(truemoney, 'sandbox truemoney');
  const link = ((await output.textContent()) ?? '').trim();
  await truemoney.close();

  await page.getByRole('button', { name: t('home.deposit') }).click();
  const deposit = page.getByRole('dialog', { name: t('deposit.title') });
  await deposit.getByRole('tab', { name: t('deposit.truemoney.tab'), exact: true }).click();
  const send = deposit.getByRole('button', { name: t('deposit.truemoney.send') });
  await expect(send).toBeDisabled();
  await deposit.getByLabel(t('deposit.truemoney.link')).fill(link);
  await expectAccessible(page, 'deposit truemoney');
  await screenshot(page, {
    path: `test-results/screens/deposit-truemoney-${test.info().project.name}.png`,
  });
  await send.click();
  await expect(page.getByText(t('deposit.truemoney.success', { amount: '50.00' }))).toBeVisible();
  await expect(page.locator('.balance-amount')).toContainText('50.00');

  await deposit.getByLabel(t('deposit.truemoney.link')).fill(link);
  await send.click();
  await expect(page.getByText(t('errorMsg.TRUELINK_DUPLICATE'))).toBeVisible();
});
