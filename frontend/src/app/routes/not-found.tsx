import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '@/components/ui/Icon';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { paths } from '@/lib/paths';

export default function NotFoundRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('notFound.title'));
  return (
    <main className="bare-page" id="main">
      <div className="bare-card">
        <span className="bare-icon" aria-hidden="true">
          <Icon name="info" size={40} />
        </span>
        <p className="bare-code" aria-hidden="true">
          404
        </p>
        <h1 className="page-title">{t('notFound.title')}</h1>
        <p className="muted">{t('notFound.text')}</p>
        <Link className="btn btn-primary" to={paths.root}>
          {t('notFound.home')}
        </Link>
      </div>
    </main>
  );
}
