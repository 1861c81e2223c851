import { describe, expect, it, vi } from 'vitest';

vi.mock('@/lib/api-client', () => ({
  api: { get: vi.fn(async (path: string) => ({ link: `https://games.example${path}` })) },
}));

import { launchLink, withCredentials, type Slot } from './games';

const creds = { username: 'jk user', password: 'p&w#1' };
const slot = (code: string, web: string | null = `/sandbox/games/login/${code}`) => ({ code, web }) as Slot;

describe('launchLink (spec §7 auto-login, §9 launch codes)', () => {
  it('hands JOKER its credentials in the fragment, encoded', async () => {
    const link = await launchLink(slot('JOKER'), creds);
    expect(link).toBe('/sandbox/games/login/JOKER#username=jk+user&password=p%26w%231');
    const read = new URLSearchParams(new URL(link ?? '', 'http://x.invalid').hash.slice(1));
    expect([read.get('username'), read.get('password')]).toEqual(['jk user', 'p&w#1']);
  });

  it('asks the auto-login route, with the password only where the route takes it', async () => {
    expect(await launchLink(slot('PG'), creds)).toBe('https://games.example/api/autoLogin/pg/jk%20user');
    expect(await launchLink(slot('ASKMEBET'), creds)).toBe(
      'https://games.example/api/autoLogin/askmebet/jk%20user/p%26w%231',
    );
  });

  it('opens any other code plain, and replaces an existing fragment', async () => {
    expect(await launchLink(slot('OTHER', 'https://x.example/#a'), creds)).toBe('https://x.example/#a');
    expect(withCredentials('https://x.example/#a', creds)).toMatch(/^https:\/\/x\.example\/#username=/);
  });
});
