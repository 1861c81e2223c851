import { afterEach, describe, expect, it, vi } from 'vitest';
import { sendTrueLink } from './deposit';

describe('sendTrueLink', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('carries the Idempotency-Key', async () => {
    const fetchMock = vi.fn(async () => Response.json({ code: 'SUCCESS', amount: 50 }));
    vi.stubGlobal('fetch', fetchMock);
    await sendTrueLink('https://gift.truemoney.com/campaign/?v=abc', 'k1');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/wallet/truelink');
    expect(init.body).toBe('{"link":"https://gift.truemoney.com/campaign/?v=abc"}');
    expect(new Headers(init.headers).get('Idempotency-Key')).toBe('k1');
  });
});
