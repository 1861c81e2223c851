/**
 * /backoffice/chat: the support inbox with the member's page beside the open conversation. Two
 * features meet here (chat and members), so they are composed in this screen module rather than
 * one importing the other; routes.ts loads it lazily.
 */
import { useTranslation } from 'react-i18next';
import SupportInbox from '../features/chat/SupportInbox';
import type { InboxConversation } from '../features/chat/inbox-api';
import { MemberPanel } from '../features/members/MemberPanel';

function MemberSide({ conversation }: { conversation: InboxConversation }) {
  const { t } = useTranslation();
  // A guest who never logged in has no member page.
  if (conversation.memberId === null) return <p className="bo-muted">{t('bo.chat.guestSide')}</p>;
  return <MemberPanel key={conversation.memberId} memberId={conversation.memberId} />;
}

export default function SupportScreen() {
  return <SupportInbox side={(conversation) => <MemberSide conversation={conversation} />} />;
}
