/**
 * /backoffice/chat: the support inbox with the member's page beside the open conversation. Two
 * features meet here (chat and members), so they are composed in this screen module rather than
 * one importing the other; routes.ts loads it lazily.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import SupportInbox from '../features/chat/SupportInbox';
import type { InboxConversation } from '../features/chat/inbox-api';

/** Until the members feature's MemberPanel lands: who the member is, and a link to their page. */
function MemberSide({ conversation }: { conversation: InboxConversation }) {
  const { t } = useTranslation();
  if (conversation.memberId === null) return <p className="bo-muted">{t('bo.chat.guestSide')}</p>;
  return (
    <div className="bo-chat-member">
      <h2>{t('bo.chat.member')}</h2>
      <p>{conversation.name}</p>
      {conversation.username && <p className="bo-muted">{conversation.username}</p>}
      <Link className="bo-btn" to={`/members/${conversation.memberId}`}>
        {t('bo.chat.openMember')}
      </Link>
    </div>
  );
}

export default function SupportScreen() {
  return <SupportInbox side={(conversation) => <MemberSide conversation={conversation} />} />;
}
