/**
 * QR amount rules of spec §5 and §9: quick amounts per channel, and when the create button is
 * enabled (KBANK: amount > 0; gateways: at least their minimum). PAYTIMZ's minimum may be
 * overridden by the server (qrMinimum) and then replaces the first quick amount.
 */
const DEFAULT_QUICK = [10, 20, 50, 100, 500, 1000];
const GATEWAY_QUICK = [100, 200, 300, 500, 1000];
const QUICK: Record<string, number[]> = {
  KBANK: [10, 20, 50, 100, 500, 1000],
  WW: [100, 200, 300, 500, 1000],
  PAYTIMZ: [10, 50, 100, 500, 1000],
  PAYONEX: [100, 200, 300, 500, 1000],
};
// A Lao bank's kip QR (BCEL, Lao variant): a deposit is tens of thousands of kip, not tens.
const KIP_QUICK = [10_000, 20_000, 50_000, 100_000, 500_000, 1_000_000];
const GATEWAY_MINIMUM: Record<string, number> = { WW: 100, PAYTIMZ: 10, PAYONEX: 100 };

export function isGateway(bankType: string): boolean {
  return bankType === 'PAYMENT';
}

export function qrMinimum(bankCode: string, bankType: string, serverMinimum?: number | null): number {
  if (!isGateway(bankType)) return 0;
  return serverMinimum ?? GATEWAY_MINIMUM[bankCode] ?? 1;
}

export function quickAmounts(
  bankCode: string,
  bankType: string,
  serverMinimum?: number | null,
  currency: string = 'THB',
): number[] {
  if (currency === 'LAK' && !isGateway(bankType)) return KIP_QUICK;
  const base = QUICK[bankCode] ?? (isGateway(bankType) ? GATEWAY_QUICK : DEFAULT_QUICK);
  if (bankCode === 'PAYTIMZ' && serverMinimum && serverMinimum !== GATEWAY_MINIMUM.PAYTIMZ) {
    return [serverMinimum, ...base.slice(1).filter((amount) => amount > serverMinimum)];
  }
  return base;
}

/** Whether "create QR" is enabled for the typed amount (null = not a number). */
export function canCreate(amount: number | null, bankType: string, minimum: number): boolean {
  if (amount === null) return false;
  if (!isGateway(bankType)) return amount > 0 && amount >= 1;
  return amount >= minimum;
}
