/**
 * The customer's conversation in the widget: who is chatting (member token or guest id), the
 * socket room PREFIX + id, history, live messages, sending and attachments, alerts for 4 s.
 * Lazy: this module (and socket.io-client) loads only when the widget opens.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/hooks/use-error-text';
import { ApiError } from '@/lib/errors';
import {
  customerMediaUrl,
  fetchHistory,
  identityHeaders,
  markRead,
  resolveIdentity,
  sendMessage,
  uploadMedia,
  type Identity,
} from '../api/chat';
import { fetchBlobUrl } from '@/lib/chat/transfer';
import type { CustomerMessage } from '@/lib/chat/types';
import { useAlert } from '@/lib/chat/use-alert';
import { useChatSocket, type SocketAuth } from '@/lib/chat/use-chat-socket';
import { useConversation, type ConversationTransport } from '@/lib/chat/use-conversation';
import { Connecting } from './Connecting';
import { ChatView } from '@/components/chat/ChatView';
import { Composer } from '@/components/chat/Composer';
import type { ChatAction } from '@/components/chat/MessageView';

export default function ChatPanel({ prefix }: { prefix: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText('chat');
  const [identity, setIdentity] = useState<Identity | null>(null);
  const [alert, showAlert] = useAlert();

  useEffect(() => {
    resolveIdentity().then(setIdentity, (error: unknown) => showAlert(errorText(error)));
  }, [errorText, showAlert]);

  const onError = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.code === 'CHAT_FILE_TOO_LARGE') showAlert(t('chat.tooLargeServer'));
      else showAlert(errorText(error));
    },
    [errorText, showAlert, t],
  );

  const transport = useMemo<ConversationTransport<CustomerMessage> | null>(
    () =>
      identity && {
        history: (skip, limit) => fetchHistory(identity, skip, limit),
        send: (message, clientId) => sendMessage(identity, message, clientId),
        upload: (kind, file, onProgress) => uploadMedia(identity, kind, file, onProgress),
        markRead: () => markRead(identity),
      },
    [identity],
  );
  const chat = useConversation({ transport, side: 'customer', onError });

  const auth = useMemo<SocketAuth | null>(
    () => (identity ? (identity.kind === 'member' ? { token: identity.token } : { guestId: identity.guestId }) : null),
    [identity],
  );
  const room = identity ? prefix + (identity.kind === 'member' ? identity.userId : identity.guestId) : null;
  const connected = useChatSocket({ auth, room, onMessage: chat.receive, onJoin: () => void chat.catchUp() });

  const loadMedia = useCallback(
    (path: string) => (identity ? fetchBlobUrl(customerMediaUrl(path), identityHeaders(identity)) : Promise.reject(new Error('no identity'))),
    [identity],
  );

  const onAction = (action: ChatAction) => {
    if (action.kind === 'postback') {
      chat.send({ message_type: 'postback', payload: { title: action.title, payload: action.payload } });
    } else {
      chat.send({ message_type: 'text', payload: action.text });
    }
  };

  return (
    <div className="chat-body">
      {!connected && <Connecting />}
      <ChatView
        items={chat.items}
        side="customer"
        hasMore={chat.hasMore}
        loading={chat.loading}
        onLoadEarlier={() => void chat.loadEarlier()}
        onAction={onAction}
        onRetry={chat.retry}
        loadMedia={loadMedia}
        label={t('chat.messages')}
      />
      {alert && (
        <p className="chat-alert" role="alert">
          {alert}
        </p>
      )}
      <Composer
        disabled={!identity}
        onText={(text) => chat.send({ message_type: 'text', payload: text })}
        onFile={chat.sendFile}
        onAlert={showAlert}
      />
    </div>
  );
}
