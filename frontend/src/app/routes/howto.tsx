import { useTranslation } from 'react-i18next';
import { HowtoVideos } from '@/features/howto/components/HowtoVideos';
import { useDocumentTitle } from '@/hooks/use-document-title';

export default function HowtoRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('howto.title'));
  return (
    <div className="stack-lg">
      <div>
        <h1 className="page-title">{t('howto.title')}</h1>
        <p className="muted">{t('howto.subtitle')}</p>
      </div>
      <HowtoVideos />
    </div>
  );
}
