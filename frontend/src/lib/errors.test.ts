import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import enErrors from '@/locales/en/errors.json';
import en from '@/locales/en/translation.json';
import { api, CLIENT_HEADER, onErrorRoute, TIMEOUT_MS, toApiError } from './api-client';
import { ApiError, errorRoute, errorText } from './errors';

const messages = { ...en.errorMsg, ...enErrors.errorMsg } as Record<string, string>;
const t = (key: string) => messages[key.replace('errorMsg.', '')] ?? key;
const exists = (key: string) => key.replace('errorMsg.', '') in messages;

describe('errorRoute (spec §8)', () => {
  it("sends 'gone' to /terminated", () => {
    expect(errorRoute('gone')).toBe('terminated');
  });

  it('sends the ended-session family to /login', () => {
    for (const code of [
      'invalid-token',
      'UNAUTHORIZED',
      'EXPIRED_AUTH_TOKEN',
      'INVALID_USER_1',
      'INVALID_USER_2',
      'INVALID_USER_3',
      'INVALID_USER_4',
    ]) {
      expect(errorRoute(code)).toBe('login');
    }
  });

  it('keeps every other code on the page', () => {
    expect(errorRoute('WRONG_CREDENTIAL')).toBeNull();
    expect(errorRoute('MONEY_NOT_ENOUGH')).toBeNull();
  });
});

describe('errorText', () => {
  it('translates catalogue codes', () => {
    expect(errorText(new ApiError(400, 'WRONG_CREDENTIAL'), t, exists)).toBe(
      'The phone number or password is incorrect.',
    );
  });

  it('shows unknown codes raw', () => {
    expect(errorText(new ApiError(400, 'SOMETHING_NEW'), t, exists)).toBe('SOMETHING_NEW');
  });

  it('treats client-side failures as a network error', () => {
    expect(errorText(new TypeError('boom'), t, exists)).toBe(messages.NETWORK_ERROR);
  });
});

describe('toApiError', () => {
  afterEach(() => onErrorRoute(null));

  it('reads {message, field} bodies', () => {
    const error = toApiError(422, { message: 'KEY_INVALID', field: 'amount' });
    expect(error).toMatchObject({ status: 422, code: 'KEY_INVALID', field: 'amount', redirected: false });
  });

  it('falls back for bodies without a message', () => {
    expect(toApiError(502, 'Bad gateway').code).toBe('INTERNAL_SERVER_ERROR');
    expect(toApiError(404, { detail: 'Not Found' }).code).toBe('Not Found');
    expect(toApiError(418, null).code).toBe('HTTP_418');
  });

  it('routes gone and invalid-token through the registered listener', () => {
    const listener = vi.fn();
    onErrorRoute(listener);
    expect(toApiError(410, { message: 'gone' }).redirected).toBe(true);
    expect(toApiError(401, { message: 'invalid-token' }).redirected).toBe(true);
    expect(toApiError(400, { message: 'WRONG_CREDENTIAL' }).redirected).toBe(false);
    expect(listener.mock.calls).toEqual([['terminated'], ['login']]);
  });
});

describe('api client', () => {
  const store = new Map<string, string>();
  beforeEach(() => {
    store.clear();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => store.set(k, v),
      removeItem: (k: string) => store.delete(k),
    });
    vi.stubGlobal('sessionStorage', { getItem: () => null, setItem: () => undefined, removeItem: () => undefined });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('sends the bearer token, the wallet marker and JSON', async () => {
    store.set('token', 'abc');
    const fetchMock = vi.fn(async () => Response.json({ code: 'OK', status: 'PENDING' }));
    vi.stubGlobal('fetch', fetchMock);
    const data = await api.post('/api/wallet/withdrawAll', { amount: 100 }, { headers: { 'Idempotency-Key': 'k1' } });
    expect(data).toEqual({ code: 'OK', status: 'PENDING' });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    const headers = new Headers(init.headers);
    expect(url).toBe('/api/wallet/withdrawAll');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"amount":100}');
    expect(headers.get('Authorization')).toBe('Bearer abc');
    expect(headers.get(CLIENT_HEADER)).toBe('wallet');
    expect(headers.get('Idempotency-Key')).toBe('k1');
    expect(headers.get('Content-Type')).toBe('application/json');
  });

  it('sends no Authorization without a token', async () => {
    const fetchMock = vi.fn(async () => Response.json({ terminated: false }));
    vi.stubGlobal('fetch', fetchMock);
    await api.get('/api/lookup/active');
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(new Headers(init.headers).has('Authorization')).toBe(false);
  });

  it('throws ApiError with the server code', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ message: 'WRONG_CREDENTIAL' }, { status: 400 })));
    await expect(api.post('/api/login', { username: 'a', password: 'b' })).rejects.toMatchObject({
      status: 400,
      code: 'WRONG_CREDENTIAL',
    });
  });

  it('gives up after 60 s with TIMEOUT', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) =>
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          ),
      ),
    );
    const pending = api.get('/api/wallet');
    const check = expect(pending).rejects.toMatchObject({ code: 'TIMEOUT' });
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS - 1);
    await vi.advanceTimersByTimeAsync(1);
    await check;
  });

  it('reports an unreachable server as NETWORK_ERROR', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(api.get('/api/wallet')).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
  });
});
