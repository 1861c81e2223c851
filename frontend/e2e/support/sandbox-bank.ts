/** The member's bank app in another tab: the sandbox bank pays a QR's text, and the operator is
 * notified in the QR's own dialect (Pao's, or SCB's with PAO_BANK_API=scb). */
import { expect, type BrowserContext } from '@playwright/test';
import { randomDigits } from './backend';

export async function payQrAtSandboxBank(context: BrowserContext, payload: string): Promise<void> {
  const bank = await context.newPage();
  await bank.goto('/sandbox/bank');
  await bank.getByLabel('Your bank', { exact: true }).selectOption('SCB');
  await bank.getByLabel('Your account number').fill(randomDigits(10));
  await bank.getByLabel('QR payload').fill(payload);
  await bank.getByRole('button', { name: 'Pay QR', exact: true }).click();
  await expect(bank.locator('#qr-out')).toContainText('Operator notified: yes');
  await bank.close();
}
