import { useTranslation } from 'react-i18next';
import { ProtectionView } from '@/features/protection/components/ProtectionView';
import { useDocumentTitle } from '@/hooks/use-document-title';

export default function ProtectionRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('protection.title'));
  return <ProtectionView />;
}
