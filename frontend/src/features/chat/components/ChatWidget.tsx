/**
 * The chat widget of the contact pages (spec §2): a floating logo button with an invite bubble
 * ('แชทกับแอดมิน'), shown only when the enableChatWidget flag is on and the chat answers its
 * config. The panel — and with it socket.io-client — is loaded only when first opened; until it
 * is in its room the panel says it is connecting.
 */
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/Icon';
import { chatQueries } from '../api/chat';
import { Connecting } from './Connecting';

const ChatPanel = lazy(() => import('./ChatPanel'));

export function ChatWidget() {
  const { t } = useTranslation();
  const enabled = useQuery(chatQueries.enabled());
  const config = useQuery({ ...chatQueries.config(), enabled: enabled.data?.enableChatWidget === true });
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);

  useEffect(() => {
    if (!open) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  if (!enabled.data?.enableChatWidget || !config.data?.PREFIX) return null;
  const prefix = config.data.PREFIX;

  return (
    <div className="chat-widget">
      {mounted && (
        <section
          id="chat-panel"
          className={`chat-panel ${open ? 'chat-panel-open' : ''}`}
          aria-label={t('chat.title')}
          {...(open ? {} : { inert: '' })}
        >
          <header className="chat-head">
            <span className="chat-head-logo" aria-hidden="true">
              <img src="/favicon.svg" alt="" width={28} height={28} />
            </span>
            <h2 className="chat-head-title">{t('chat.title')}</h2>
            <button type="button" className="icon-btn icon-btn-sm" aria-label={t('chat.close')} onClick={() => setOpen(false)}>
              <Icon name="close" />
            </button>
          </header>
          <Suspense fallback={<Connecting />}>
            <ChatPanel prefix={prefix} />
          </Suspense>
        </section>
      )}
      {!open && (
        <p className="chat-invite" aria-hidden="true">
          {t('chat.invite')}
        </p>
      )}
      <button
        type="button"
        className={`chat-launcher ${open ? 'chat-launcher-open' : ''}`}
        aria-expanded={open}
        aria-controls={mounted ? 'chat-panel' : undefined}
        aria-label={open ? t('chat.close') : t('chat.open')}
        onClick={() => {
          setMounted(true);
          setOpen((value) => !value);
        }}
      >
        <img src="/favicon.svg" alt="" width={36} height={36} />
      </button>
    </div>
  );
}
