import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ProtectionView } from '@/features/protection/components/ProtectionView';
import { useDocumentTitle } from '@/hooks/use-document-title';

export default function ProtectionRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('protection.title'));
  // Opened from the foot of the profile or from the deposit modal: start at the top of the page.
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, []);
  return <ProtectionView />;
}
