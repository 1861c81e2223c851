import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { paths } from '@/lib/paths';

/** /user/bonus and /user/spin exist in the route table; their screens come with later issues. */
export default function ComingSoonRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('comingSoon.title'));
  return (
    <div className="card empty stack">
      <h1 className="page-title">{t('comingSoon.title')}</h1>
      <p className="muted">{t('comingSoon.text')}</p>
      <Link className="btn btn-primary" to={paths.user.home}>
        {t('nav.home')}
      </Link>
    </div>
  );
}
