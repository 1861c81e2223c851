/** Display rules of a slip row (spec §2, §4, §8), pure so that they are unit-tested. */

export type SlipStatus = 'PENDING' | 'SUCCESS' | 'FAILED';

/** Anything not final reads as 'in progress' (the default, shown as a warning). */
export function slipStatus(status: string): SlipStatus {
  return status === 'SUCCESS' || status === 'FAILED' ? status : 'PENDING';
}

export const SLIP_TONE: Record<SlipStatus, 'success' | 'danger' | 'warning'> = {
  SUCCESS: 'success',
  FAILED: 'danger',
  PENDING: 'warning',
};

/**
 * What a slip's badge says. A FAILED slip that staff are still checking (review OPEN) may yet be
 * credited: it reads 'Under review' as a warning, not as a refusal; one refused after review
 * says so.
 */
export function slipBadge(
  status: string,
  review: string | null | undefined,
): { key: string; tone: 'success' | 'danger' | 'warning' } {
  const shown = slipStatus(status);
  if (shown === 'FAILED' && (review === 'OPEN' || review === 'REJECTED')) {
    return { key: `slips.review.${review}`, tone: review === 'OPEN' ? 'warning' : 'danger' };
  }
  return { key: `statement.status.${shown}`, tone: SLIP_TONE[shown] };
}

/** The amount column: '-' unless above 0. */
export function slipAmountText(amount: number, format: (value: number) => string): string {
  return amount > 0 ? format(amount) : '-';
}

/** The translation key of a reason code, or null when it has none. */
export function slipReasonKey(note: string | null | undefined): string | null {
  return note ? `slipReason.${note}` : null;
}
