/** The signed-in frame: sidebar navigation built from the route table and `me`'s permissions,
 * a top bar with the staff member's name and role, the language, "lock" (stepping away: the
 * password opens it again) and logout. */
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { Icon } from '@/components/ui/Icon';
import { Spinner } from '@/components/ui/Spinner';
import { LanguageSelect } from './components/LanguageSelect';
import { boApi } from './lib/api';
import { useLogout } from './lib/auth';
import { markLocked } from './lib/lock';
import type { Me } from './lib/permissions';
import { routesFor } from './routes';

export function Shell({ me }: { me: Me }) {
  const { t } = useTranslation();
  const logout = useLogout();
  return (
    <div className="bo-shell">
      <a className="bo-skip" href="#bo-main">
        {t('bo.top.skip')}
      </a>
      <aside className="bo-side">
        <div className="bo-brand">
          <span className="bo-logo" aria-hidden="true">
            P
          </span>
          <span>{t('bo.appName')}</span>
        </div>
        <nav aria-label={t('bo.nav.label')}>
          <ul className="bo-nav">
            {routesFor(me.permissions).map((route) => (
              <li key={route.path}>
                <NavLink to={`/${route.path}`} className="bo-nav-link">
                  <Icon name={route.nav.icon} size={18} />
                  <span>{t(route.nav.label)}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <div className="bo-body">
        <header className="bo-top">
          <LanguageSelect />
          <p className="bo-who">
            <span className="visually-hidden">
              {t('bo.top.signedInAs', { name: me.displayName, role: t(`bo.role.${me.role}`) })}
            </span>
            <span className="bo-who-name" aria-hidden="true">
              {me.displayName}
            </span>
            <span className="bo-badge" aria-hidden="true">
              {t(`bo.role.${me.role}`)}
            </span>
          </p>
          <button
            type="button"
            className="bo-btn"
            onClick={() => {
              // Locked here at once; the server's lock is what makes it hold.
              void boApi.post('/api/backoffice/auth/lock').then(markLocked, markLocked);
            }}
          >
            <Icon name="lock" size={18} />
            {t('bo.top.lock')}
          </button>
          <button type="button" className="bo-btn" onClick={() => void logout()}>
            <Icon name="logout" size={18} />
            {t('bo.top.logout')}
          </button>
        </header>
        <main id="bo-main" className="bo-main" tabIndex={-1}>
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
