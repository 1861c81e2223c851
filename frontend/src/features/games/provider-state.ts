/**
 * A game provider's state on the card and in the modals (ADR 0013): maintenance (with its
 * planned end, when the operator gave one) or temporarily unavailable. Not usable: the card
 * says so, transfers and play are disabled, and the amount is the last known one.
 */
import { formatDateTime } from '@/lib/dates';

type ProviderFields = { providerState?: 'ok' | 'maintenance' | 'down'; maintenanceUntil?: string | null };
type NoticeKey = 'games.maintenanceUntil' | 'games.maintenance' | 'games.down';
type Translate = (key: NoticeKey, vars?: { time: string }) => string;

export function providerUsable(slot: ProviderFields): boolean {
  return (slot.providerState ?? 'ok') === 'ok';
}

/** The card's status line, or null for a usable provider. */
export function providerNotice(slot: ProviderFields, t: Translate): string | null {
  if (slot.providerState === 'maintenance') {
    // DD/MM/YYYY HH:mm in the browser's time zone (the seconds say nothing here).
    return slot.maintenanceUntil
      ? t('games.maintenanceUntil', { time: formatDateTime(slot.maintenanceUntil).slice(0, 16) })
      : t('games.maintenance');
  }
  if (slot.providerState === 'down') return t('games.down');
  return null;
}
