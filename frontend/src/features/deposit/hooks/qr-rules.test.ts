import { describe, expect, it } from 'vitest';
import { formatMmSs } from '@/hooks/use-countdown';
import { canCreate, qrMinimum, quickAmounts } from './qr-rules';

describe('QR rules', () => {
  it('lists the quick amounts of spec §9', () => {
    expect(quickAmounts('KBANK', 'BANK')).toEqual([10, 20, 50, 100, 500, 1000]);
    expect(quickAmounts('WW', 'PAYMENT')).toEqual([100, 200, 300, 500, 1000]);
    expect(quickAmounts('PAYONEX', 'PAYMENT')).toEqual([100, 200, 300, 500, 1000]);
  });

  it("offers kip-sized quick amounts on a Lao bank's kip QR", () => {
    expect(quickAmounts('BCEL', 'BANK', null, 'LAK')).toEqual([10_000, 20_000, 50_000, 100_000, 500_000, 1_000_000]);
    expect(quickAmounts('BCEL', 'BANK', null, 'THB')).toEqual([10, 20, 50, 100, 500, 1000]);
  });

  it('replaces the first PAYTIMZ quick amount with an overridden minimum', () => {
    expect(quickAmounts('PAYTIMZ', 'PAYMENT', 10)).toEqual([10, 50, 100, 500, 1000]);
    expect(quickAmounts('PAYTIMZ', 'PAYMENT', 20)).toEqual([20, 50, 100, 500, 1000]);
  });

  it('enables create per spec §5', () => {
    expect(canCreate(0, 'BANK', qrMinimum('KBANK', 'BANK'))).toBe(false);
    expect(canCreate(0.5, 'BANK', 0)).toBe(false);
    expect(canCreate(1, 'BANK', 0)).toBe(true);
    expect(canCreate(99.99, 'PAYMENT', qrMinimum('WW', 'PAYMENT'))).toBe(false);
    expect(canCreate(100, 'PAYMENT', qrMinimum('WW', 'PAYMENT', 100))).toBe(true);
    expect(canCreate(null, 'PAYMENT', 10)).toBe(false);
  });

  it('formats the countdown as mm:ss', () => {
    expect(formatMmSs(0)).toBe('00:00');
    expect(formatMmSs(75)).toBe('01:15');
    expect(formatMmSs(900)).toBe('15:00');
  });
});
