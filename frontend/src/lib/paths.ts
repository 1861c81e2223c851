import { sitePath } from './safe-url';

/** Every route path of the app (spec §2), in one place. */
export const paths = {
  root: '/',
  login: '/login',
  register: '/register',
  howto: '/howto',
  contact: '/contact',
  terminated: '/terminated',
  agent: '/agent',
  user: {
    root: '/user',
    home: '/user/home',
    profile: '/user/profile',
    bonus: '/user/bonus',
    statement: '/user/statement',
    contact: '/user/contact',
    spin: '/user/spin',
    protection: '/user/protection',
  },
} as const;

const REDIRECT_PARAM = 'redirect';

/** /login carrying the URL the visitor wanted. */
export function loginWithRedirect(wanted: string): string {
  if (!wanted || wanted === paths.login) return paths.login;
  return `${paths.login}?${REDIRECT_PARAM}=${encodeURIComponent(wanted)}`;
}

/** Where to go after login: the carried URL when it is a place under /user on this site, else /user. */
export function redirectTarget(search: string): string {
  const wanted = sitePath(new URLSearchParams(search).get(REDIRECT_PARAM));
  if (wanted && (wanted === paths.user.root || /^\/user[/?#]/.test(wanted))) return wanted;
  return paths.user.root;
}
