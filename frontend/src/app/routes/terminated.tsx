import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/Icon';
import { useDocumentTitle } from '@/hooks/use-document-title';

/** Shown when the site is closed (spec §2); its title is 'Page Not Found'. */
export default function TerminatedRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('terminated.title'));
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
