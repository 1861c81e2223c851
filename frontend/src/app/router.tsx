/**
 * Route table of spec §2. Every screen is its own lazy chunk; /login loads only the public shell
 * and the login screen on top of the entry.
 */
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { DelayedSpinner } from '@/components/ui/Spinner';
import { paths } from '@/lib/paths';
import { RequireAuth } from './guards';

const PublicShell = lazy(() => import('./routes/public-shell'));
const UserShell = lazy(() => import('./routes/user-shell'));
const Login = lazy(() => import('./routes/login'));
const Register = lazy(() => import('./routes/register'));
const Howto = lazy(() => import('./routes/howto'));
const Contact = lazy(() => import('./routes/contact'));
const Home = lazy(() => import('./routes/user/home'));
const Profile = lazy(() => import('./routes/user/profile'));
const Statement = lazy(() => import('./routes/user/statement'));
const Bonus = lazy(() => import('./routes/user/bonus'));
const Spin = lazy(() => import('./routes/user/spin'));
const Terminated = lazy(() => import('./routes/terminated'));
const NotFound = lazy(() => import('./routes/not-found'));
const Agent = lazy(() => import('./routes/agent'));

export function AppRouter() {
  return (
    <Suspense fallback={<DelayedSpinner />}>
      <Routes>
        <Route path={paths.root} element={<PublicShell />}>
          <Route index element={<Navigate to={paths.user.root} replace />} />
          <Route path={paths.login} element={<Login />} />
          <Route path={paths.register} element={<Register />} />
          <Route path={paths.howto} element={<Howto />} />
          <Route path={paths.contact} element={<Contact />} />
        </Route>
        <Route
          path={paths.user.root}
          element={
            <RequireAuth>
              <UserShell />
            </RequireAuth>
          }
        >
          <Route index element={<Navigate to={paths.user.home} replace />} />
          <Route path={paths.user.home} element={<Home />} />
          <Route path={paths.user.profile} element={<Profile />} />
          <Route path={paths.user.statement} element={<Statement />} />
          <Route path={paths.user.contact} element={<Contact />} />
          <Route path={paths.user.bonus} element={<Bonus />} />
          <Route path={paths.user.spin} element={<Spin />} />
        </Route>
        <Route path={paths.terminated} element={<Terminated />} />
        <Route path={paths.agent} element={<Agent />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}
