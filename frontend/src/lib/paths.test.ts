import { describe, expect, it } from 'vitest';
import { loginWithRedirect, redirectTarget } from './paths';

describe('login redirect', () => {
  it('carries the wanted URL', () => {
    expect(loginWithRedirect('/user/profile')).toBe('/login?redirect=%2Fuser%2Fprofile');
    expect(redirectTarget('?redirect=%2Fuser%2Fprofile')).toBe('/user/profile');
  });

  it('goes to /user by default and refuses foreign targets', () => {
    expect(redirectTarget('')).toBe('/user');
    expect(redirectTarget('?redirect=https%3A%2F%2Fevil.test')).toBe('/user');
    expect(redirectTarget('?redirect=%2F%2Fevil.test')).toBe('/user');
    expect(redirectTarget('?redirect=%2Flogin')).toBe('/user');
    // Read as the browser reads them: another host, or a path that leaves /user.
    expect(redirectTarget('?redirect=%2F%5Cevil.test')).toBe('/user');
    expect(redirectTarget('?redirect=%2F%09%2Fevil.test')).toBe('/user');
    expect(redirectTarget('?redirect=%2Fuser%2F..%2Flogin')).toBe('/user');
    expect(redirectTarget('?redirect=%2Fusername')).toBe('/user');
    expect(redirectTarget('?redirect=%2Fuser%3Ftab%3D1')).toBe('/user?tab=1');
  });
});
