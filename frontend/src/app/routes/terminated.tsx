import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { lookupQueries } from '@/api/lookups';
import { Icon } from '@/components/ui/Icon';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { paths } from '@/lib/paths';
import { getToken } from '@/lib/storage';

/**
 * Where a browser parked here goes once the site reopened: a member who still holds a session
 * goes back to the app (opening /login would end that session: app/guards.tsx), anyone else
 * to /login.
 */
export function afterReopening(hasSession: boolean): string {
  return hasSession ? paths.user.home : paths.login;
}

/**
 * Shown when the site is closed (spec §2); its title is 'Page Not Found'. It asks whether the
 * site is still closed (``/api/lookup/active`` answers even then) on load and every half
 * minute, and leaves once it reopened (to the app with the session kept, else /login): a browser
 * left on this page, or reloading it, must not stay locked out of a site that is open again
 * (issue 17, finding 1), nor lose its session to the wait (issue 35).
 */
export default function TerminatedRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useDocumentTitle(t('terminated.title'));
  const active = useQuery({ ...lookupQueries.active(), staleTime: 0, refetchInterval: 30_000 });
  const open = active.data?.terminated === false;
  useEffect(() => {
    if (open) void navigate(afterReopening(getToken() !== null), { replace: true });
  }, [open, navigate]);
  return (
    <main className="bare-page" id="main">
      <div className="bare-card">
        <span className="bare-icon" aria-hidden="true">
          <Icon name="alert" size={40} />
        </span>
        <h1 className="page-title">{t('terminated.title')}</h1>
        <p className="muted">{t('terminated.text')}</p>
      </div>
    </main>
  );
}
