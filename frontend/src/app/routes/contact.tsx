import { useTranslation } from 'react-i18next';
import { ChatWidget } from '@/features/chat/components/ChatWidget';
import { ContactInfo } from '@/features/contact/components/ContactInfo';
import { useDocumentTitle } from '@/hooks/use-document-title';

export default function ContactRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('contact.title'));
  return (
    <div className="stack-lg">
      <h1 className="page-title">{t('contact.title')}</h1>
      <ContactInfo />
      <ChatWidget />
    </div>
  );
}
