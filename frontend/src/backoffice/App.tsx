/**
 * The back office: providers and the router, under /backoffice. /login is open; every other
 * path needs a staff session, and each screen of the route table (routes.ts) its permission.
 */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, Navigate, useLocation, useRoutes } from 'react-router';
import { Spinner } from '@/components/ui/Spinner';
import { ToastProvider } from '@/components/ui/Toast';
import { LockScreen } from './features/sessions/LockScreen';
import { useIdleLock } from './features/sessions/use-idle-lock';
import LoginPage from './features/login/LoginPage';
import { LOGIN_PATH, SessionEndBridge, useMe, type LoginState } from './lib/auth';
import { useLocked } from './lib/lock';
import { getStaffToken } from './lib/session';
import type { Me } from './lib/permissions';
import { BACK_OFFICE_ROUTES, routesFor } from './routes';
import { Shell } from './Shell';

export const BASENAME = '/backoffice';

/** The shell around the screens of the route table this staff member may open. */
function SignedInRoutes({ me }: { me: Me }) {
  useIdleLock(me.idleLockMinutes);
  const allowed = routesFor(me.permissions);
  // A screen the role may not open, or no path: the first one it may.
  const fallback = `/${allowed[0]?.path ?? BACK_OFFICE_ROUTES.at(-1)?.path}`;
  return useRoutes([
    {
      element: <Shell me={me} />,
      children: [
        ...allowed.map(({ path, Screen }) => ({ path: `${path}/*`, element: <Screen /> })),
        { path: '*', element: <Navigate to={fallback} replace /> },
      ],
    },
  ]);
}

/** The signed-in part: waits for `me`, or sends the browser to the login screen; a locked
 * session shows only the lock screen (the page's URL stays, for after the unlock). */
function SignedIn() {
  // A lock is a session's: without a token there is nothing to unlock.
  const locked = useLocked() && getStaffToken() !== null;
  const { me, loading } = useMe(!locked);
  const location = useLocation();
  if (locked) return <LockScreen />;
  if (loading) return <Spinner />;
  if (!me) {
    const from = location.pathname + location.search;
    return <Navigate to={LOGIN_PATH} replace state={{ from } satisfies LoginState} />;
  }
  return <SignedInRoutes me={me} />;
}

function AppRoutes() {
  return useRoutes([
    { path: LOGIN_PATH, element: <LoginPage /> },
    { path: '*', element: <SignedIn /> },
  ]);
}

function DocumentTitle() {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    document.title = t('bo.appName');
  }, [t, i18n.language]);
  return null;
}

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter basename={BASENAME}>
        <ToastProvider>
          <SessionEndBridge />
          <DocumentTitle />
          <AppRoutes />
        </ToastProvider>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
