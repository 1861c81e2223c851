/** /agent: the support agents' inbox (its own login and role; no member shell around it). */
import { useTranslation } from 'react-i18next';
import AgentInbox from '@/features/chat/components/AgentInbox';
import { useDocumentTitle } from '@/hooks/use-document-title';

export default function AgentRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('agent.inbox'));
  return <AgentInbox />;
}
