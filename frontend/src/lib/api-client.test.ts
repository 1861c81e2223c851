import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, toApiError } from './api-client';

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

describe('api errors', () => {
  it('keep the bounds a refusal names, for its text', () => {
    const count = toApiError(422, { message: 'BONUS_MAX_RECEIVED_INVALID', field: 'maxReceived', min: 1, max: 2147483647 });
    expect([count.code, count.field, count.details]).toEqual(['BONUS_MAX_RECEIVED_INVALID', 'maxReceived', { min: 1, max: 2147483647 }]);
    expect(toApiError(422, { message: 'TRANSFER_MINIMUM', field: 'amount', minimum: 100 }).details).toEqual({ minimum: 100 });
    expect(toApiError(422, { message: 'KEY_INVALID', field: 'x', max: 'many' }).details).toEqual({});
  });
});
