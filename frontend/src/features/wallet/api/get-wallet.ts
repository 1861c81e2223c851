/** GET /api/wallet: member name, wallet and game balances. Each fetch stamps last_sync. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type ApiData } from '@/lib/api-client';
import { rememberMemberCurrency } from '@/lib/member-currency';
import { STORAGE_KEYS, writeLocal } from '@/lib/storage';

export type Wallet = ApiData<'/api/wallet', 'get'>;

export async function getWallet(): Promise<Wallet> {
  const data = await api.get('/api/wallet');
  writeLocal(STORAGE_KEYS.lastSync, new Date().toISOString());
  // Every amount the app shows is in this currency from now on (lib/member-currency.ts).
  rememberMemberCurrency(data.wallet.currency);
  return data;
}

// Fresh for a few seconds: the fetch started while home loads (app/router.tsx) is not repeated
// when home mounts; home reloads it anyway once the game balances are refreshed.
export const walletQuery = () =>
  queryOptions({ queryKey: ['wallet'], queryFn: getWallet, staleTime: 10_000 });

export function useWallet() {
  return useQuery(walletQuery());
}
