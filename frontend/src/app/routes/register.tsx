import { useTranslation } from 'react-i18next';
import { RegisterWizard } from '@/features/register/components/RegisterWizard';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useEntryGuard } from '../guards';

export default function RegisterRoute() {
  const { t } = useTranslation();
  useEntryGuard('register');
  useDocumentTitle(t('register.title'));
  return <RegisterWizard />;
}
