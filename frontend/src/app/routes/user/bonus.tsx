import { useTranslation } from 'react-i18next';
import { BonusPage } from '@/features/promotions/components/BonusPage';
import { useDocumentTitle } from '@/hooks/use-document-title';

export default function BonusRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('promotions.bonus.title'));
  return <BonusPage />;
}
