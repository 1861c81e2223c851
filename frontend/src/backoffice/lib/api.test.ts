import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '@/lib/api-client';
import { boApi } from './api';
import { forgetLock, isLocked, LOCK_KEY } from './lock';
import { STAFF_TOKEN_KEY } from './session';

// The two apps share one origin (and so one localStorage): each must send only its own token.
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

function sentAuthorization(fetchMock: ReturnType<typeof vi.fn>): string | null {
  const init = fetchMock.mock.calls[0]?.[1] as RequestInit;
  return new Headers(init.headers).get('Authorization');
}

describe('tokens stay with their app', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.stubGlobal('localStorage', memoryStorage());
    vi.stubGlobal('sessionStorage', memoryStorage());
    fetchMock = vi.fn(() => Promise.resolve(new Response('{}', { status: 200 })));
    vi.stubGlobal('fetch', fetchMock);
    localStorage.setItem('token', 'member-token');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the staff token, never the member one, to the back office', async () => {
    localStorage.setItem(STAFF_TOKEN_KEY, 'staff-token');
    await boApi.get('/api/backoffice/me');
    expect(sentAuthorization(fetchMock)).toBe('Bearer staff-token');
  });

  it('sends no token at all to the back office without a staff session', async () => {
    await boApi.post('/api/backoffice/auth/login', { login: 'ann', password: 'secret' });
    expect(sentAuthorization(fetchMock)).toBeNull();
  });

  it('sends the member token, never the staff one, on player routes', async () => {
    localStorage.setItem(STAFF_TOKEN_KEY, 'staff-token');
    await api.get('/api/bonus');
    expect(sentAuthorization(fetchMock)).toBe('Bearer member-token');
  });
});

describe('a locked session', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', memoryStorage());
    forgetLock();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('locks the screen of every tab on the first 423 SESSION_LOCKED', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(new Response('{"message":"SESSION_LOCKED"}', { status: 423 }))));
    localStorage.setItem(STAFF_TOKEN_KEY, 'staff-token');
    await expect(boApi.get('/api/backoffice/withdrawals')).rejects.toMatchObject({ code: 'SESSION_LOCKED' });
    expect(isLocked()).toBe(true);
    expect(localStorage.getItem(LOCK_KEY)).toBe('1');
  });

  it('stays unlocked on other refusals', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(new Response('{"message":"STAFF_FORBIDDEN"}', { status: 403 }))));
    await expect(boApi.get('/api/backoffice/staff')).rejects.toMatchObject({ code: 'STAFF_FORBIDDEN' });
    expect(isLocked()).toBe(false);
  });
});
