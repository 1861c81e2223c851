/**
 * The support inbox (/backoffice/chat): the conversations of a view (all, mine, unassigned) with
 * unread counts and assignees, one conversation beside them, and whatever the screen puts on
 * the right of it (the member's page). The list follows the agents' socket: new messages, read
 * marks and assignments made by other staff refresh it without a reload. The view, the page and
 * the open conversation are the URL query.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { WireMessage } from '@/lib/chat/types';
import { useChatSocket } from '@/lib/chat/use-chat-socket';
import { formatDateTime } from '@/lib/dates';
import { meQuery } from '../../lib/auth';
import { useBoErrorText } from '../../lib/errors';
import { getStaffToken } from '../../lib/session';
import { ConversationPane } from './ConversationPane';
import { fetchConversation, fetchInbox, INBOX_PAGE, inboxKeys, type InboxConversation, type InboxView } from './inbox-api';
import { readInboxState, VIEWS, writeInboxState, type InboxState } from './inbox-view';

const VIEW_LABEL = { all: 'bo.chat.viewAll', mine: 'bo.chat.viewMine', unassigned: 'bo.chat.viewUnassigned' } as const;

function preview(conversation: InboxConversation, t: (key: 'bo.chat.previewMedia' | 'bo.chat.previewOther') => string): string {
  const last = conversation.lastMessage?.message;
  if (!last) return '';
  if (last.message_type === 'text') return last.payload;
  return last.message_type === 'media' ? t('bo.chat.previewMedia') : t('bo.chat.previewOther');
}

function ConversationItem({ conversation, current, onOpen }: { conversation: InboxConversation; current: boolean; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <li>
      <button type="button" className="bo-chat-item" aria-current={current ? 'true' : undefined} onClick={onOpen}>
        <span className="bo-chat-item-top">
          <span className="bo-chat-item-name">{conversation.name}</span>
          {conversation.unread > 0 && (
            <span className="bo-chat-unread" aria-label={t('bo.chat.unread', { count: conversation.unread })}>
              {conversation.unread}
            </span>
          )}
        </span>
        <span className="bo-chat-item-preview">{preview(conversation, t)}</span>
        <span className="bo-chat-item-meta">
          <span>{conversation.assignedName ?? t('bo.chat.nobody')}</span>
          {conversation.channel === 'line' && <span className="bo-badge">{t('bo.chat.fromLine')}</span>}
          {conversation.wantsAgent && <span className="bo-badge bo-badge-warn">{t('bo.chat.wantsAgent')}</span>}
          {conversation.lastMessageAt && <span>{formatDateTime(conversation.lastMessageAt).slice(11, 16)}</span>}
        </span>
      </button>
    </li>
  );
}

export default function SupportInbox({ side }: { side?: (conversation: InboxConversation) => ReactNode }) {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const state = readInboxState(params);
  const go = (next: Partial<InboxState>) => setParams(writeInboxState({ ...state, ...next }));
  const me = useQuery(meQuery());
  const list = useQuery({
    queryKey: inboxKeys.list(state.view, state.page),
    queryFn: ({ signal }) => fetchInbox(state.view, state.page, signal),
    placeholderData: keepPreviousData,
  });
  // The open conversation, even when it is not on this page of this view.
  const selected = useQuery({
    queryKey: inboxKeys.one(state.selected ?? 0),
    queryFn: ({ signal }) => fetchConversation(state.selected ?? 0, signal),
    enabled: state.selected !== null,
  });
  const [live, setLive] = useState<WireMessage[]>([]);
  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: inboxKeys.all }), [queryClient]);
  const token = getStaffToken();
  const auth = useMemo(() => (token ? { agentToken: token } : null), [token]);
  const connected = useChatSocket({
    auth,
    onMessage: (message) => {
      setLive((messages) => [...messages.slice(-100), message]);
      refresh();
    },
    onRead: refresh,
    onAssigned: refresh,
    onJoin: refresh,
  });

  const items = list.data?.items ?? [];
  const current = selected.data ?? null;
  return (
    <section className="bo-page bo-chat" aria-labelledby="bo-chat-title">
      <header className="bo-page-head">
        <h1 id="bo-chat-title">{t('bo.chat.title')}</h1>
        <span className={`bo-badge ${connected ? 'bo-badge-ok' : 'bo-badge-warn'}`}>
          {connected ? t('bo.chat.live') : t('bo.chat.connecting')}
        </span>
      </header>
      <div className={`bo-chat-layout ${current && side ? 'bo-chat-layout-side' : ''}`}>
        <nav className="bo-chat-list" aria-label={t('bo.chat.conversations')}>
          <div className="bo-chat-views" role="group" aria-label={t('bo.chat.view')}>
            {VIEWS.map((view: InboxView) => (
              <button
                key={view}
                type="button"
                className="bo-chat-view"
                aria-pressed={state.view === view}
                onClick={() => go({ view, page: 1 })}
              >
                {t(VIEW_LABEL[view])}
              </button>
            ))}
          </div>
          {list.isError && (
            <p className="bo-error" role="alert">
              {errorText(list.error)}
            </p>
          )}
          {list.data && items.length === 0 && <p className="bo-muted bo-chat-empty">{t('bo.chat.empty')}</p>}
          <ul className="bo-chat-items">
            {items.map((conversation) => (
              <ConversationItem
                key={conversation.id}
                conversation={conversation}
                current={conversation.id === state.selected}
                onOpen={() => go({ selected: conversation.id })}
              />
            ))}
          </ul>
          {list.data && list.data.total > INBOX_PAGE && (
            <div className="bo-chat-pages">
              <button type="button" className="bo-btn" disabled={state.page <= 1} onClick={() => go({ page: state.page - 1 })}>
                {t('bo.chat.previous')}
              </button>
              <span className="bo-muted">{t('bo.chat.page', { page: state.page, pages: Math.ceil(list.data.total / INBOX_PAGE) })}</span>
              <button
                type="button"
                className="bo-btn"
                disabled={state.page * INBOX_PAGE >= list.data.total}
                onClick={() => go({ page: state.page + 1 })}
              >
                {t('bo.chat.next')}
              </button>
            </div>
          )}
        </nav>
        {current && me.data ? (
          <ConversationPane key={current.id} conversation={current} live={live} me={me.data.id} />
        ) : (
          <p className="bo-muted bo-chat-pick">{selected.isError ? errorText(selected.error) : t('bo.chat.pick')}</p>
        )}
        {current && side && <aside className="bo-chat-side" aria-label={t('bo.chat.member')}>{side(current)}</aside>}
      </div>
    </section>
  );
}
