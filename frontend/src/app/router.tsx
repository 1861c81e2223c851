/**
 * Route table of spec §2. Every screen is its own lazy chunk and names the string parts it shows
 * and the data its first paint needs (app/lazy-page.ts); /login loads only the public shell and
 * the login screen on top of the entry.
 */
import type { QueryClient } from '@tanstack/react-query';
import { Suspense } from 'react';
import { matchRoutes, Navigate, useRoutes, type RouteObject } from 'react-router';
import { lookupQueries } from '@/api/lookups';
import { DelayedSpinner } from '@/components/ui/Spinner';
import { spinQueries } from '@/features/promotions/api/spin';
import { walletQuery } from '@/features/wallet/api/get-wallet';
import { paths } from '@/lib/paths';
import { RequireAuth } from './guards';
import { lazyPage, type Page } from './lazy-page';

// scripts/page-strings.mjs reads the `strings` of these lines: every part each screen shows.
const appName = (client: QueryClient) => client.prefetchQuery(lookupQueries.info());
const PublicShell = lazyPage(() => import('./routes/public-shell'), { prefetch: appName });
const UserShell = lazyPage(() => import('./routes/user-shell'), { strings: ['member'], prefetch: appName });
const Login = lazyPage(() => import('./routes/login'), {
  prefetch: (client) => client.prefetchQuery(lookupQueries.active()),
});
const Register = lazyPage(() => import('./routes/register'), { strings: ['register'] });
const Howto = lazyPage(() => import('./routes/howto'), { strings: ['support'] });
const Contact = lazyPage(() => import('./routes/contact'), { strings: ['support'] });
const Home = lazyPage(() => import('./routes/user/home'), {
  strings: ['member'],
  // The balance is the screen's main content; the wheel's flag picks one of its widgets.
  prefetch: (client) =>
    Promise.all([client.prefetchQuery(walletQuery()), client.prefetchQuery(spinQueries.active())]),
});
const Profile = lazyPage(() => import('./routes/user/profile'), { strings: ['member', 'register'] });
const Statement = lazyPage(() => import('./routes/user/statement'), { strings: ['member'] });
const Bonus = lazyPage(() => import('./routes/user/bonus'), { strings: ['member'] });
const Spin = lazyPage(() => import('./routes/user/spin'), { strings: ['member'] });
const Terminated = lazyPage(() => import('./routes/terminated'));
const NotFound = lazyPage(() => import('./routes/not-found'));
const Agent = lazyPage(() => import('./routes/agent'), { strings: ['support'] });

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
