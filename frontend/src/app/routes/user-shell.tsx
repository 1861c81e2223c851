/**
 * Member shell: app name, language and logout on top; bottom menu with profile, the conditions
 * popup, the big centre home button, statement and contact; the reality-check reminder while
 * logged in (loaded once the first screen has painted).
 */
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { LanguageMenu } from '@/components/LanguageMenu';
import { Icon } from '@/components/ui/Icon';
import { DelayedSpinner } from '@/components/ui/Spinner';
import { useLogout } from '@/features/auth/api/logout';
import { ConditionsModal } from '@/features/conditions/components/ConditionsModal';
import { useAppName } from '@/hooks/use-app-name';
import { usePainted } from '@/hooks/use-painted';
import { paths } from '@/lib/paths';

// The reminder is due minutes after sign-in at the earliest: its code and first request wait until
// the screen has painted instead of joining a slow phone's first download.
const RealityCheck = lazy(() =>
  import('@/features/protection/components/RealityCheck').then((m) => ({ default: m.RealityCheck })),
);

export default function UserShell() {
  const { t } = useTranslation();
  const appName = useAppName();
  const logout = useLogout();
  const [conditionsOpen, setConditionsOpen] = useState(false);
  const painted = usePainted(true);

  return (
    <div className="shell shell-user">
      <header className="topbar">
        <div className="topbar-inner">
          <span className="brand">
            <span className="brand-mark" aria-hidden="true">
              {appName.slice(0, 1)}
            </span>
            {appName}
          </span>
          <div className="topbar-actions">
            <LanguageMenu compact />
            <button
              type="button"
              className="icon-btn"
              onClick={() => logout.mutate()}
              disabled={logout.isPending}
              aria-label={t('nav.logout')}
              title={t('nav.logout')}
            >
              <Icon name="logout" />
            </button>
          </div>
        </div>
      </header>
      <main className="content" id="main">
        <Suspense fallback={<DelayedSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <nav className="bottom-nav" aria-label={t('nav.main')}>
        <ul className="bottom-nav-inner">
          <li>
            <NavLink to={paths.user.profile} className="nav-item">
              <Icon name="user" />
              <span>{t('nav.profile')}</span>
            </NavLink>
          </li>
          <li>
            <button type="button" className="nav-item" onClick={() => setConditionsOpen(true)}>
              <Icon name="doc" />
              <span>{t('nav.conditions')}</span>
            </button>
          </li>
          <li className="nav-home-slot">
            <NavLink to={paths.user.home} className="nav-home" aria-label={t('nav.home')}>
              <Icon name="home" size={28} />
            </NavLink>
          </li>
          <li>
            <NavLink to={paths.user.statement} className="nav-item">
              <Icon name="list" />
              <span>{t('nav.statement')}</span>
            </NavLink>
          </li>
          <li>
            <NavLink to={paths.user.contact} className="nav-item">
              <Icon name="chat" />
              <span>{t('nav.contact')}</span>
            </NavLink>
          </li>
        </ul>
      </nav>
      <ConditionsModal open={conditionsOpen} onClose={() => setConditionsOpen(false)} />
      {painted && (
        <Suspense fallback={null}>
          <RealityCheck onStop={() => logout.mutate()} />
        </Suspense>
      )}
    </div>
  );
}
