import { useTranslation } from 'react-i18next';
import { ProfileView } from '@/features/profile/components/ProfileView';
import { useDocumentTitle } from '@/hooks/use-document-title';

export default function ProfileRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('profile.title'));
  return <ProfileView />;
}
