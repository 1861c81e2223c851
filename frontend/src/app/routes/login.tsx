import { useTranslation } from 'react-i18next';
import { LoginForm } from '@/features/auth/components/LoginForm';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useEntryGuard } from '../guards';

export default function LoginRoute() {
  const { t } = useTranslation();
  useEntryGuard('login');
  useDocumentTitle(t('login.title'));
  return <LoginForm />;
}
