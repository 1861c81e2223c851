/**
 * The agent inbox (/agent): the staff login (password, then the authenticator's code, with the
 * enrolment QR on a first login; the token is a staff session's), the conversations with
 * unread counts refreshed live, one conversation with history and live messages, replies with
 * text, buttons, quick replies and media, and read marks.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/Icon';
import { useErrorText } from '@/hooks/use-error-text';
import { ApiError } from '@/lib/errors';
import {
  agentConversations,
  agentHistory,
  agentLogout,
  agentMe,
  agentMediaBlob,
  agentRead,
  agentSend,
  agentUpload,
  getAgentToken,
  setAgentToken,
  staffCode,
  staffPassword,
} from '../api/agent';
import type { AgentMessage, ConversationSummary, WireMessage } from '@/lib/chat/types';
import { useAlert } from '@/lib/chat/use-alert';
import { useChatSocket } from '@/lib/chat/use-chat-socket';
import { useConversation, type ConversationTransport } from '@/lib/chat/use-conversation';
import { ChatView } from '@/components/chat/ChatView';
import { Composer } from '@/components/chat/Composer';
import { ReplyKindPicker, useReplyBuilder } from '@/components/chat/ReplyKindPicker';

type Enrolment = { secret: string; qr: string };
type Challenge = { ticket: string; enrolment: Enrolment | null };

function AgentLogin({ onDone }: { onDone: (token: string) => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText('chat');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (caught) {
      // An expired ticket starts over at the password.
      if (caught instanceof ApiError && caught.code === 'STAFF_LOGIN_EXPIRED') setChallenge(null);
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };
  const submitPassword = (event: FormEvent) => {
    event.preventDefault();
    if (!username || !password) return;
    void run(async () => {
      const answer = await staffPassword({ login: username, password });
      setCode('');
      setChallenge({ ticket: answer.ticket, enrolment: answer.enrolment ?? null });
    });
  };
  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    if (!challenge || !code) return;
    void run(async () => {
      const answer = await staffCode({ ticket: challenge.ticket, code });
      onDone(answer.token);
    });
  };
  const errorLine = error && (
    <p className="form-error" role="alert">
      {error}
    </p>
  );
  if (challenge) {
    const { enrolment } = challenge;
    return (
      <main className="agent-login">
        <form className="card form" onSubmit={submitCode}>
          <h1 className="page-title">{t(enrolment ? 'agent.enrolTitle' : 'agent.codeTitle')}</h1>
          {enrolment && (
            <>
              <p>{t('agent.enrolText')}</p>
              <img className="agent-qr" src={enrolment.qr} alt={t('agent.qrAlt')} width={200} height={200} />
              <p>
                {t('agent.secret')} <code className="agent-secret">{enrolment.secret}</code>
              </p>
            </>
          )}
          <div className="field">
            <label className="field-label" htmlFor="agent-code">
              {t('agent.code')}
            </label>
            <input
              id="agent-code"
              className="input"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(event) => {
                setCode(event.target.value.replace(/\D/g, ''));
                setError(null);
              }}
            />
          </div>
          {errorLine}
          <button type="submit" className="btn btn-primary btn-block" disabled={busy || code.length !== 6}>
            {t('agent.verify')}
          </button>
        </form>
      </main>
    );
  }
  return (
    <main className="agent-login">
      <form className="card form" onSubmit={submitPassword}>
        <h1 className="page-title">{t('agent.loginTitle')}</h1>
        <div className="field">
          <label className="field-label" htmlFor="agent-username">
            {t('agent.username')}
          </label>
          <input
            id="agent-username"
            className="input"
            autoComplete="username"
            value={username}
            onChange={(event) => {
              setUsername(event.target.value);
              setError(null);
            }}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor="agent-password">
            {t('agent.password')}
          </label>
          <input
            id="agent-password"
            className="input"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              setError(null);
            }}
          />
        </div>
        {errorLine}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy || !username || !password}>
          {t('agent.login')}
        </button>
      </form>
    </main>
  );
}

function Conversation({
  summary,
  live,
  onBack,
  onUnauthorized,
}: {
  summary: ConversationSummary;
  live: WireMessage[];
  onBack: () => void;
  onUnauthorized: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText('chat');
  const queryClient = useQueryClient();
  const [alert, showAlert] = useAlert();
  const reply = useReplyBuilder();
  const id = summary._id;

  const transport = useMemo<ConversationTransport<AgentMessage>>(
    () => ({
      history: (skip, limit) => agentHistory(id, skip, limit),
      send: (message, clientId) => agentSend(id, message, clientId),
      upload: (mediaKind, file, onProgress) => agentUpload(id, mediaKind, file, onProgress),
      markRead: async () => {
        await agentRead(id);
        await queryClient.invalidateQueries({ queryKey: ['agent', 'conversations'] });
      },
    }),
    [id, queryClient],
  );
  const onError = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 401) onUnauthorized();
      else showAlert(errorText(error));
    },
    [errorText, onUnauthorized, showAlert],
  );
  const chat = useConversation({ transport, side: 'agent', onError });
  const { receive } = chat;
  useEffect(() => {
    // Live messages of every conversation; merging ignores ones already shown.
    for (const message of live) if (message.conversationId === id) receive(message);
  }, [live, id, receive]);

  return (
    <section className="agent-conversation" aria-label={summary.name}>
      <header className="agent-conversation-head">
        <button type="button" className="icon-btn icon-btn-sm" aria-label={t('agent.back')} onClick={onBack}>
          <Icon name="chevronLeft" />
        </button>
        <h2 className="section-title">{summary.name}</h2>
        {summary.username && <span className="muted small">{summary.username}</span>}
      </header>
      <ChatView
        items={chat.items}
        side="agent"
        hasMore={chat.hasMore}
        loading={chat.loading}
        onLoadEarlier={() => void chat.loadEarlier()}
        onRetry={chat.retry}
        loadMedia={agentMediaBlob}
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

function Inbox({ token, onLogout }: { token: string; onLogout: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useQuery({ queryKey: ['agent', 'me', token], queryFn: agentMe, retry: false });
  const conversations = useQuery({ queryKey: ['agent', 'conversations'], queryFn: agentConversations, retry: false });
  const [selected, setSelected] = useState<string | null>(null);
  const [live, setLive] = useState<WireMessage[]>([]);

  const unauthorized = (me.error ?? conversations.error) as unknown;
  useEffect(() => {
    if (unauthorized instanceof ApiError && unauthorized.status === 401) onLogout();
  }, [unauthorized, onLogout]);

  const auth = useMemo(() => ({ agentToken: token }), [token]);
  const connected = useChatSocket({
    auth,
    onMessage: (message) => {
      setLive((list) => [...list.slice(-100), message]);
      void queryClient.invalidateQueries({ queryKey: ['agent', 'conversations'] });
    },
    onRead: () => void queryClient.invalidateQueries({ queryKey: ['agent', 'conversations'] }),
    onJoin: () => void queryClient.invalidateQueries({ queryKey: ['agent', 'conversations'] }),
  });

  const list = conversations.data ?? [];
  const current = list.find((c) => c._id === selected) ?? null;
  return (
    <main className="agent-inbox">
      <header className="agent-top">
        <h1 className="agent-title">{t('agent.inbox')}</h1>
        <span className={`badge ${connected ? 'badge-success' : 'badge-warning'}`}>
          {connected ? t('agent.online') : t('chat.connecting')}
        </span>
        {me.data && <span className="small muted">{me.data.name}</span>}
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => {
            agentLogout().catch(() => undefined);
            onLogout();
          }}
        >
          {t('agent.logout')}
        </button>
      </header>
      <div className={`agent-layout ${current ? 'agent-layout-open' : ''}`}>
        <nav className="agent-list" aria-label={t('agent.conversations')}>
          {list.length === 0 && <p className="muted chat-empty">{t('agent.noConversations')}</p>}
          <ul>
            {list.map((c) => {
              const last = c.lastMessage?.message;
              const preview =
                last?.message_type === 'text'
                  ? last.payload
                  : last?.message_type === 'media'
                    ? t('agent.previewMedia')
                    : last
                      ? t('agent.previewOther')
                      : '';
              return (
                <li key={c._id}>
                  <button
                    type="button"
                    className={`agent-item ${c._id === selected ? 'agent-item-current' : ''}`}
                    aria-current={c._id === selected ? 'true' : undefined}
                    onClick={() => setSelected(c._id)}
                  >
                    <span className="agent-item-name">{c.name}</span>
                    {c.unread > 0 && (
                      <span className="badge badge-danger" aria-label={t('agent.unread', { count: c.unread })}>
                        {c.unread}
                      </span>
                    )}
                    {c.wantsAgent && <span className="badge badge-warning">{t('agent.wantsAgent')}</span>}
                    <span className="agent-item-preview">{preview}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </nav>
        {current && (
          <Conversation
            key={current._id}
            summary={current}
            live={live}
            onBack={() => setSelected(null)}
            onUnauthorized={onLogout}
          />
        )}
      </div>
    </main>
  );
}

export default function AgentInbox() {
  const [token, setToken] = useState<string | null>(() => getAgentToken());
  const logout = useCallback(() => {
    setAgentToken(null);
    setToken(null);
  }, []);
  if (!token) {
    return (
      <AgentLogin
        onDone={(fresh) => {
          setAgentToken(fresh);
          setToken(fresh);
        }}
      />
    );
  }
  return <Inbox token={token} onLogout={logout} />;
}
