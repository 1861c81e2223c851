/** Public shell: brand and language on top, bottom menu with login, register, how-to, contact. */
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { LanguageMenu } from '@/components/LanguageMenu';
import { Icon, type IconName } from '@/components/ui/Icon';
import { DelayedSpinner } from '@/components/ui/Spinner';
import { useAppName } from '@/hooks/use-app-name';
import { paths } from '@/lib/paths';

const LINKS: { to: string; key: 'login' | 'register' | 'howto' | 'contact'; icon: IconName }[] = [
  { to: paths.login, key: 'login', icon: 'home' },
  { to: paths.register, key: 'register', icon: 'user' },
  { to: paths.howto, key: 'howto', icon: 'play' },
  { to: paths.contact, key: 'contact', icon: 'chat' },
];

export default function PublicShell() {
  const { t } = useTranslation();
  const appName = useAppName();
  return (
    <div className="shell">
      <header className="topbar">
        <div className="topbar-inner">
          <span className="brand">
            <span className="brand-mark" aria-hidden="true">
              {appName.slice(0, 1)}
            </span>
            {appName}
          </span>
          <LanguageMenu />
        </div>
      </header>
      <main className="content" id="main">
        <Suspense fallback={<DelayedSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <nav className="bottom-nav" aria-label={t('nav.main')}>
        <ul className="bottom-nav-inner">
          {LINKS.map((link) => (
            <li key={link.key}>
              <NavLink to={link.to} className="nav-item">
                <Icon name={link.icon} />
                <span>{t(`nav.${link.key}`)}</span>
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
