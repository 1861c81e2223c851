import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, TIMEOUT_MS } from './api-client';
import {
  artworkOf,
  EARLY_MAX_AGE_MS,
  EARLY_REQUESTS_GLOBAL,
  takeEarly,
  type Artwork,
  type EarlyRequest,
} from './early-requests';

const json = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status }));

/** What the inline script of index.html leaves behind (plugins/preload-first-screen.ts). */
function sentEarly(requests: Record<string, Partial<EarlyRequest>>): void {
  (globalThis as Record<string, unknown>)[EARLY_REQUESTS_GLOBAL] = Object.fromEntries(
    Object.entries(requests).map(([url, request]) => [
      url,
      { token: null, at: performance.now(), response: json(200, { url }), ...request },
    ]),
  );
}

beforeEach(() => {
  // Any request that reaches the network is a request the early answer did not save.
  vi.stubGlobal('fetch', vi.fn(() => json(200, { from: 'network' })));
});

afterEach(() => {
  delete (globalThis as Record<string, unknown>)[EARLY_REQUESTS_GLOBAL];
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('takeEarly', () => {
  it('gives the answer once, for the same URL and token', () => {
    sentEarly({ '/api/wallet': { token: 'abc' } });
    expect(takeEarly('/api/lookup/info', 'abc')).toBeUndefined();
    expect(takeEarly('/api/wallet', 'abc')).toBeInstanceOf(Promise);
    expect(takeEarly('/api/wallet', 'abc')).toBeUndefined();
  });

  it('drops an answer asked with another token, or too old', () => {
    sentEarly({ '/api/wallet': { token: 'old' } });
    expect(takeEarly('/api/wallet', 'new')).toBeUndefined();
    sentEarly({ '/api/wallet': { token: 'abc', at: performance.now() - EARLY_MAX_AGE_MS - 1 } });
    expect(takeEarly('/api/wallet', 'abc')).toBeUndefined();
  });

  it('has nothing when index.html started nothing', () => {
    expect(takeEarly('/api/wallet', null)).toBeUndefined();
  });
});

describe('the API client with early requests', () => {
  it('answers a GET from the early request instead of fetching it again', async () => {
    sentEarly({ '/api/lookup/info': {} });
    await expect(api.get('/api/lookup/info')).resolves.toEqual({ url: '/api/lookup/info' });
    expect(fetch).not.toHaveBeenCalled();
    // Taken once: the next call goes to the network.
    await expect(api.get('/api/lookup/info')).resolves.toEqual({ from: 'network' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('turns an early error answer into an ApiError like any other', async () => {
    sentEarly({ '/api/lookup/info': { response: json(401, { message: 'invalid-token' }) } });
    await expect(api.get('/api/lookup/info')).rejects.toMatchObject({ status: 401, code: 'invalid-token' });
  });

  it('reports an early request that failed as NETWORK_ERROR', async () => {
    sentEarly({ '/api/lookup/info': { response: Promise.reject(new TypeError('Failed to fetch')) } });
    await expect(api.get('/api/lookup/info')).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
  });

  it('stops waiting for an early request after the time-out', async () => {
    vi.useFakeTimers();
    sentEarly({ '/api/lookup/info': { response: new Promise<Response>(() => undefined) } });
    const pending = api.get('/api/lookup/info');
    const check = expect(pending).rejects.toMatchObject({ code: 'TIMEOUT' });
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS);
    await check;
  });

  it('fetches when the call has its own headers or another query', async () => {
    sentEarly({ '/api/lookup/info': {}, '/api/lookup/sources': {} });
    await api.get('/api/lookup/info', { headers: { Authorization: 'Bearer other' } });
    await api.get('/api/lookup/sources', { query: { lang: 'th' } });
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});

describe('artworkOf (run by index.html on the early answer)', () => {
  const rule: Artwork = { data: '/api/wallet', list: 'slots', where: { category: 'slot' }, fields: ['background', 'logo'] };
  const slot = (code: string, category: string) => ({
    code,
    category,
    background: `/games/${code}-bg.svg`,
    logo: `https://cdn.example/${code}.svg`,
  });

  it('picks the fields of the first item that matches', () => {
    const body = { slots: [slot('sexy', 'sport'), slot('joker', 'slot'), slot('pg', 'slot')] };
    expect(artworkOf(rule, body)).toEqual(['/games/joker-bg.svg', 'https://cdn.example/joker.svg']);
  });

  it('gives nothing for an answer of another shape', () => {
    for (const body of [null, 'text', 42, {}, { slots: 'x' }, { slots: [null, 7, 'x'] }, { slots: [slot('sexy', 'sport')] }]) {
      expect(artworkOf(rule, body)).toEqual([]);
    }
  });

  it('keeps only same-site paths and http(s) addresses', () => {
    const hostile = { category: 'slot', background: 'javascript:alert(1)', logo: '//evil.example/x.svg' };
    expect(artworkOf(rule, { slots: [hostile] })).toEqual([]);
    expect(artworkOf(rule, { slots: [{ category: 'slot', background: 'data:image/svg+xml,x', logo: 7 }] })).toEqual([]);
  });
});
