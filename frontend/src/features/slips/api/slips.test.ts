import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchSlipImage } from './slips';

describe('fetchSlipImage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('never sends the bearer token off the site', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    for (const link of ['//evil.example/slip.png', '/\\evil.example/slip.png', 'https://evil.example/slip.png']) {
      await expect(fetchSlipImage(link)).rejects.toMatchObject({ message: 'NO_DATA' });
    }
    expect(fetch).not.toHaveBeenCalled();
  });
});
