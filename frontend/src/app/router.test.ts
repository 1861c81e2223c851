import { describe, expect, it } from 'vitest';
import { pagesAt } from './router';

const stringsAt = (pathname: string, loggedIn: boolean) => pagesAt(pathname, loggedIn).map((page) => page.strings);

describe('pagesAt (what main.tsx fetches before the first render)', () => {
  it('is the public shell and the login screen on /login, with the up-front strings only', () => {
    expect(stringsAt('/login', false)).toEqual([[], []]);
  });

  it('is the member shell and the screen, with their parts, when logged in', () => {
    expect(stringsAt('/user/home', true)).toEqual([['member'], ['member']]);
    expect(stringsAt('/user/profile', true)).toEqual([['member'], ['member', 'register']]);
  });

  it('fetches nothing behind the login without a session (the guard sends it to /login)', () => {
    expect(pagesAt('/user/home', false)).toEqual([]);
  });

  it('gives the same page object for one screen under both shells', () => {
    const [, publicContact] = pagesAt('/contact', false);
    const [, memberContact] = pagesAt('/user/contact', true);
    expect(publicContact).toBeDefined();
    expect(publicContact).toBe(memberContact);
  });

  it('falls back to the not-found page', () => {
    expect(pagesAt('/nowhere', false)).toHaveLength(1);
  });
});
