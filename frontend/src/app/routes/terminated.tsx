import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { lookupQueries } from '@/api/lookups';
import { Icon } from '@/components/ui/Icon';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { paths } from '@/lib/paths';

/**
 * Shown when the site is closed (spec §2); its title is 'Page Not Found'. It asks whether the
 * site is still closed (``/api/lookup/active`` answers even then) on load and every half
 * minute, and goes back to /login once it reopened: a browser left on this page, or reloading
 * it, must not stay locked out of a site that is open again (issue 17, finding 1).
 */
export default function TerminatedRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useDocumentTitle(t('terminated.title'));
  const active = useQuery({ ...lookupQueries.active(), staleTime: 0, refetchInterval: 30_000 });
  const open = active.data?.terminated === false;
  useEffect(() => {
    if (open) void navigate(paths.login, { replace: true });
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
