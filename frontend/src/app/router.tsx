/**
 * Route table of spec §2. Every screen is its own lazy chunk and names the string parts it shows
 * and the data its first paint needs (app/lazy-page.ts); /login loads only the public shell and
 * the login screen on top of the entry. app/first-screens.json lists, for the build, what each
 * path opens first (a test keeps it in step with this table).
 */
import type { QueryClient } from '@tanstack/react-query';
import { Suspense } from 'react';
import { matchRoutes, Navigate, useRoutes, type RouteObject } from 'react-router';
import { lookupQueries } from '@/api/lookups';
import { DelayedSpinner } from '@/components/ui/Spinner';
import { FRONT_CARD_ARTWORK } from '@/features/games/carousels';
import { spinQueries } from '@/features/promotions/api/spin';
import { protectionQuery } from '@/features/protection/api/protection';
import { walletQuery } from '@/features/wallet/api/get-wallet';
import { paths } from '@/lib/paths';
import { RequireAuth } from './guards';
import { lazyPage, type Page, type PageOptions, type ScreenModule } from './lazy-page';

// Every screen module, each its own chunk, fetched on first use.
const screens = import.meta.glob<ScreenModule>('./routes/**/*.tsx');

/** The screen routes/<name>.tsx. scripts/check-page-strings.mjs reads the `strings` of these calls. */
function lazyScreen(name: string, options?: PageOptions): Page {
  const importScreen = screens[`./routes/${name}.tsx`];
  if (!importScreen) throw new Error(`no screen module routes/${name}.tsx`);
  return lazyPage(`src/app/routes/${name}.tsx`, importScreen, options);
}

const appName = (client: QueryClient) => client.prefetchQuery(lookupQueries.info());
const PublicShell = lazyScreen('public-shell', { prefetch: appName });
const UserShell = lazyScreen('user-shell', { strings: ['member'], prefetch: appName });
const Login = lazyScreen('login', {
  prefetch: (client) => client.prefetchQuery(lookupQueries.active()),
});
const Register = lazyScreen('register', { strings: ['register'] });
const Howto = lazyScreen('howto', { strings: ['support'] });
const Contact = lazyScreen('contact', { strings: ['support'] });
const Home = lazyScreen('user/home', {
  strings: ['member'],
  // The balance is the screen's main content; the wheel's flag picks one of its widgets; a
  // running break (protection) hides the deposit and game actions.
  prefetch: (client) =>
    Promise.all([
      client.prefetchQuery(walletQuery()),
      client.prefetchQuery(spinQueries.active()),
      client.prefetchQuery(protectionQuery()),
    ]),
  artwork: [FRONT_CARD_ARTWORK],
});
const Profile = lazyScreen('user/profile', { strings: ['member', 'register'] });
const Statement = lazyScreen('user/statement', { strings: ['member'] });
const Bonus = lazyScreen('user/bonus', { strings: ['member'] });
const Spin = lazyScreen('user/spin', { strings: ['member'] });
const Protection = lazyScreen('user/protection', {
  strings: ['member'],
  prefetch: (client) => client.prefetchQuery(protectionQuery()),
});
const Terminated = lazyScreen('terminated');
const NotFound = lazyScreen('not-found');
const Agent = lazyScreen('agent', { strings: ['support'] });

type Handle = { page: Page; needsLogin?: boolean };

function screen(page: Page): Pick<RouteObject, 'element' | 'handle'> {
  return { element: <page.Component />, handle: { page } satisfies Handle };
}

const routes: RouteObject[] = [
  {
    path: paths.root,
    ...screen(PublicShell),
    children: [
      { index: true, element: <Navigate to={paths.user.root} replace /> },
      { path: paths.login, ...screen(Login) },
      { path: paths.register, ...screen(Register) },
      { path: paths.howto, ...screen(Howto) },
      { path: paths.contact, ...screen(Contact) },
    ],
  },
  {
    path: paths.user.root,
    element: (
      <RequireAuth>
        <UserShell.Component />
      </RequireAuth>
    ),
    handle: { page: UserShell, needsLogin: true } satisfies Handle,
    children: [
      { index: true, element: <Navigate to={paths.user.home} replace /> },
      { path: paths.user.home, ...screen(Home) },
      { path: paths.user.profile, ...screen(Profile) },
      { path: paths.user.statement, ...screen(Statement) },
      { path: paths.user.contact, ...screen(Contact) },
      { path: paths.user.bonus, ...screen(Bonus) },
      { path: paths.user.spin, ...screen(Spin) },
      { path: paths.user.protection, ...screen(Protection) },
    ],
  },
  { path: paths.terminated, ...screen(Terminated) },
  { path: paths.agent, ...screen(Agent) },
  { path: '*', ...screen(NotFound) },
];

/** The pages (shell first) that render at `pathname`; none behind the login without a session. */
export function pagesAt(pathname: string, loggedIn: boolean): Page[] {
  const pages: Page[] = [];
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    const handle = route.handle as Handle | undefined;
    if (handle?.needsLogin && !loggedIn) break;
    if (handle) pages.push(handle.page);
  }
  return pages;
}

export function AppRouter() {
  const element = useRoutes(routes);
  return <Suspense fallback={<DelayedSpinner />}>{element}</Suspense>;
}
