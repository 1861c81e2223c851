import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from './api-client';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A saved language choice (storage 'locale') and a network that answers []. */
function setUp(saved: string | null) {
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => (key === 'locale' ? saved : null),
    setItem: () => undefined,
    removeItem: () => undefined,
  });
  const fetchMock = vi.fn((_url: string, _init?: RequestInit) =>
    Promise.resolve(new Response('[]', { status: 200 })),
  );
  vi.stubGlobal('fetch', fetchMock);
  return () => new Headers(fetchMock.mock.calls[0]?.[1]?.headers);
}

describe('api client language', () => {
  it("asks for the UI's language (Lao as the BCP 47 tag lo), not the browser's", async () => {
    const sent = setUp('la');
    await api.get('/api/bonus');
    expect(sent().get('Accept-Language')).toBe('lo');
  });

  it('keeps a language the caller sets', async () => {
    const sent = setUp('la');
    await api.get('/api/bonus', { headers: { 'Accept-Language': 'en' } });
    expect(sent().get('Accept-Language')).toBe('en');
  });
});
