/**
 * The chat panel's status line from the moment it opens (its code may still be loading) until its
 * socket is in its room: only then does everything said in the conversation arrive live.
 */
import { useTranslation } from 'react-i18next';

export function Connecting() {
  const { t } = useTranslation();
  return (
    <p className="chat-status" role="status">
      {t('chat.connecting')}
    </p>
  );
}
