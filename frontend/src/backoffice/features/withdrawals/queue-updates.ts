/**
 * What the queue does with the server's live batches (`withdrawals:changed`, one per room per
 * quarter second: `{new?: [...], updated?: [...]}`). At an operator's peak they keep coming, so
 * the queue is refetched at most once per REFRESH_EVERY_MS: the first batch after a quiet spell
 * refreshes at once, later ones wait for one refresh at the end of the interval. Each refresh
 * reports the new withdrawals gathered since the last one together, so that a burst gives one
 * announcement, not one per withdrawal.
 */
import { formatMoney, sumMoney, type Currency } from '@/lib/money';

export type NewWithdrawal = { id: number; memberId: number; amount: number; currency: Currency };
export type UpdatedWithdrawal = { id: number; status: string; claimedBy: string | null };
/** A kind with nothing in the batch is left out. */
export type QueueBatch = { new?: NewWithdrawal[]; updated?: UpdatedWithdrawal[] };

/** A cashier sees a change within a second; a steady stream costs one queue fetch a second. */
export const REFRESH_EVERY_MS = 1_000;

export type QueueUpdates = {
  /** A batch arrived: refresh now or at the end of the interval. */
  receive: (batch: QueueBatch) => void;
  /** Refresh now (after a reconnect: what was missed meanwhile). */
  refreshNow: () => void;
  /** The page is gone: no refresh is left pending. */
  stop: () => void;
};

export function createQueueUpdates(
  refresh: () => void,
  onNew: (items: NewWithdrawal[]) => void,
  everyMs: number = REFRESH_EVERY_MS,
): QueueUpdates {
  let lastRefresh = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let gathered: NewWithdrawal[] = [];

  const run = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    lastRefresh = Date.now();
    refresh();
    if (gathered.length) {
      const items = gathered;
      gathered = [];
      onNew(items);
    }
  };

  return {
    receive(batch) {
      if (batch.new) gathered.push(...batch.new);
      if (timer !== null) return;
      const wait = lastRefresh + everyMs - Date.now();
      if (wait <= 0) run();
      else timer = setTimeout(run, wait);
    },
    refreshNow: run,
    stop() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      gathered = [];
    },
  };
}

export type Arrival =
  | { key: 'bo.withdrawals.arrived'; values: { id: number; amount: string } }
  | { key: 'bo.withdrawals.arrivedSeveral'; values: { count: number; amount: string } };

/** The announcement of new withdrawals: the one withdrawal, or how many and their total per currency. */
export function arrivalOf(items: readonly NewWithdrawal[]): Arrival {
  const money = (amount: number, currency: Currency) => `${formatMoney(amount, currency)} ${currency}`;
  const [first] = items;
  if (items.length === 1 && first) return { key: 'bo.withdrawals.arrived', values: { id: first.id, amount: money(first.amount, first.currency) } };
  const byCurrency = new Map<Currency, number[]>();
  for (const item of items) {
    const amounts = byCurrency.get(item.currency);
    if (amounts) amounts.push(item.amount);
    else byCurrency.set(item.currency, [item.amount]);
  }
  const amount = [...byCurrency].map(([currency, amounts]) => money(sumMoney(amounts), currency)).join(' + ');
  return { key: 'bo.withdrawals.arrivedSeveral', values: { count: items.length, amount } };
}
