/**
 * One conversation in the back office: its history and live messages (the shared chat view and
 * composer of components/chat), replies with text, quick replies, buttons and files, read marks, and its assignment.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ChatView } from '@/components/chat/ChatView';
import { Composer } from '@/components/chat/Composer';
import { ReplyKindPicker, useReplyBuilder } from '@/components/chat/ReplyKindPicker';
import type { AgentMessage, WireMessage } from '@/lib/chat/types';
import { useAlert } from '@/lib/chat/use-alert';
import { useConversation, type ConversationTransport } from '@/lib/chat/use-conversation';
import { useBoErrorText } from '../../lib/errors';
import { AssignControls } from './AssignControls';
import { inboxKeys, markRead, mediaBlob, fetchMessages, sendMessage, uploadFile, type InboxConversation } from './inbox-api';

type Props = { conversation: InboxConversation; live: WireMessage[]; me: number };

export function ConversationPane({ conversation, live, me }: Props) {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const queryClient = useQueryClient();
  const [alert, showAlert] = useAlert();
  const reply = useReplyBuilder();
  const id = conversation.id;

  const transport = useMemo<ConversationTransport<AgentMessage>>(
    () => ({
      history: (skip, limit) => fetchMessages(id, skip, limit),
      send: (message, clientId) => sendMessage(id, message, clientId),
      upload: (kind, file, onProgress) => uploadFile(id, kind, file, onProgress),
      markRead: async () => {
        await markRead(id);
        await queryClient.invalidateQueries({ queryKey: inboxKeys.all });
      },
    }),
    [id, queryClient],
  );
  const onError = useCallback((error: unknown) => showAlert(errorText(error)), [errorText, showAlert]);
  const chat = useConversation({ transport, side: 'agent', onError });
  const { receive } = chat;
  useEffect(() => {
    // Live messages of every conversation arrive on the agents' socket; merging skips known ones.
    for (const message of live) if (message.conversationId === String(id)) receive(message);
  }, [live, id, receive]);

  return (
    <section className="bo-chat-conversation" aria-labelledby={`bo-chat-c-${id}`}>
      <header className="bo-chat-head">
        <h2 id={`bo-chat-c-${id}`}>{conversation.name}</h2>
        {conversation.username && <span className="bo-muted">{conversation.username}</span>}
        {conversation.memberId === null && <span className="bo-badge">{t('bo.chat.guest')}</span>}
      </header>
      <AssignControls conversation={conversation} me={me} />
      <ChatView
        items={chat.items}
        side="agent"
        hasMore={chat.hasMore}
        loading={chat.loading}
        onLoadEarlier={() => void chat.loadEarlier()}
        onRetry={chat.retry}
        loadMedia={mediaBlob}
        label={t('chat.messages')}
      />
      {alert && (
        <p className="chat-alert" role="alert">
          {alert}
        </p>
      )}
      <Composer
        onText={(text) => chat.send(reply.build(text))}
        onFile={chat.sendFile}
        onAlert={showAlert}
        extra={<ReplyKindPicker {...reply} />}
      />
    </section>
  );
}
