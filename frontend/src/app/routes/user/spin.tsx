import { useTranslation } from 'react-i18next';
import { SpinPage } from '@/features/promotions/components/SpinPage';
import { useDocumentTitle } from '@/hooks/use-document-title';

export default function SpinRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('promotions.spin.title'));
  return <SpinPage />;
}
