/**
 * A member's money through the public API, for tests that need a slip to upload: the member's
 * token, wallet and bank account, an operator bank account to transfer to, and a slip printed
 * by the sandbox bank for a transfer made there.
 */
import { expect, type APIRequestContext } from '@playwright/test';
import type { Member } from './backend';

const HEADERS = { 'X-Pao-Client': 'wallet' };

export async function apiToken(request: APIRequestContext, member: Member): Promise<string> {
  const response = await request.post('/api/login', {
    headers: HEADERS,
    data: { username: member.phone, password: member.password },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { token: string }).token;
}

export async function walletOf(request: APIRequestContext, token: string) {
  const response = await request.get('/api/wallet', {
    headers: { ...HEADERS, Authorization: `Bearer ${token}` },
  });
  return (await response.json()) as {
    wallet: { amount: number };
    bankAccount: { bankCode: string; bankAccountNo: string; bankAccountName: string };
  };
}

/** An operator bank account members transfer to (from the deposit lookup). */
export async function operatorAccount(request: APIRequestContext, token: string) {
  const response = await request.get('/api/lookup/deposit', {
    headers: { ...HEADERS, Authorization: `Bearer ${token}` },
  });
  expect(response.ok(), 'the deposit lookup answers').toBe(true);
  const lookup = (await response.json()) as {
    banks: {
      bankCode: string;
      bankType: string;
      mode: string;
      bankAccountNo: string;
      bank: { nameTH: string; nameEN: string };
    }[];
  };
  // A plain bank-transfer account (an AUTO one may show as a QR tab as well).
  const bank = lookup.banks.find(
    (b) => b.bankType !== 'PAYMENT' && b.mode !== 'AUTO' && b.bankAccountNo,
  );
  expect(bank, 'the demo data has an operator bank account').toBeTruthy();
  return bank!;
}

/** The slip image of a transfer of `amount` from the member's bank account to the operator's. */
export async function sandboxSlip(request: APIRequestContext, member: Member, amount: number): Promise<Buffer> {
  const token = await apiToken(request, member);
  const { bankAccount } = await walletOf(request, token);
  const operator = await operatorAccount(request, token);
  const transfer = await request.post('/sandbox/bank/api/transfers', {
    data: {
      fromBank: bankAccount.bankCode,
      fromAccount: bankAccount.bankAccountNo,
      toBank: operator.bankCode,
      toAccount: operator.bankAccountNo,
      amount,
    },
  });
  expect(transfer.ok(), 'the sandbox bank made the transfer').toBe(true);
  const { slipUrl } = (await transfer.json()) as { slipUrl: string };
  return (await request.get(slipUrl)).body();
}
