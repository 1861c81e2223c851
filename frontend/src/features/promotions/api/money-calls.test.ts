import { afterEach, describe, expect, it, vi } from 'vitest';
import { activateBonus, activatePromotion, clearBonus } from './bonus';
import { collectInvite } from './invite';
import { addRefundToWallet, receiveRefund } from './refund';

describe('promotion money calls', () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    ['/api/bonus/activate/WELCOME', () => activateBonus('WELCOME', 'k1')],
    ['/api/promotion/activate/PAO2026', () => activatePromotion('pao2026', 'k1')],
    ['/api/bonus/clear', () => clearBonus('k1')],
    ['/api/invite/bonus', () => collectInvite('k1')],
    ['/api/refund/receive', () => receiveRefund('k1')],
    ['/api/refund/addWallet', () => addRefundToWallet('k1')],
  ])('%s carries the Idempotency-Key', async (path, call) => {
    const fetchMock = vi.fn(async () => Response.json({ message: 'OK' }));
    vi.stubGlobal('fetch', fetchMock);
    await call();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(path);
    expect(new Headers(init.headers).get('Idempotency-Key')).toBe('k1');
  });
});
