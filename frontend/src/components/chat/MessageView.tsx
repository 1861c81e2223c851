/**
 * One chat message of any type of spec §3 (text, buttons, media, quick replies, generic cards,
 * postback, unknown) with the button behaviours: web opens the link, call opens tel:, postback
 * sends a postback, anything else sends the button's title as text.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/Icon';
import { SITE_OR_WEB, WEB, safeUrl } from '@/lib/safe-url';
import type { Button, ChatItem, Message, QuickReply } from '@/lib/chat/types';

export type ChatAction = { kind: 'text'; text: string } | { kind: 'postback'; title: string; payload: string };

type Props = {
  item: ChatItem;
  /** Our own side of the conversation (right-aligned, with delivery state). */
  mine: boolean;
  /** Buttons act only for the customer; the agent sees them inert. */
  onAction?: (action: ChatAction) => void;
  loadMedia: (path: string) => Promise<string>;
  onRetry?: (item: ChatItem) => void;
};

function time(iso: string | undefined, locale: string): string {
  if (!iso) return '';
  return new Date(iso).toLocaleTimeString(locale === 'la' ? 'lo' : locale, { hour: '2-digit', minute: '2-digit', hour12: false });
}

function ButtonView({ button, onAction }: { button: Button; onAction?: (action: ChatAction) => void }) {
  if (button.type === 'web') {
    return (
      <a className="chat-action" href={safeUrl(button.url, WEB) ?? undefined} target="_blank" rel="noopener noreferrer">
        {button.title}
      </a>
    );
  }
  if (button.type === 'call') {
    return (
      <a className="chat-action" href={`tel:${button.payload.replace(/[\s-]/g, '')}`}>
        {button.title}
      </a>
    );
  }
  const action: ChatAction =
    button.type === 'postback'
      ? { kind: 'postback', title: button.title, payload: button.payload }
      : { kind: 'text', text: button.title };
  return (
    <button type="button" className="chat-action" disabled={!onAction} onClick={() => onAction?.(action)}>
      {button.title}
    </button>
  );
}

function CardImage({ url }: { url: string | null | undefined }) {
  const src = safeUrl(url, SITE_OR_WEB);
  return src ? <img src={src} alt="" className="chat-card-image" /> : null;
}

function quickAction(reply: QuickReply): ChatAction {
  return reply.payload
    ? { kind: 'postback', title: reply.title, payload: reply.payload }
    : { kind: 'text', text: reply.title };
}

function Media({ path, name, fileType, loadMedia }: { path: string; name: string; fileType: string; loadMedia: Props['loadMedia'] }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    let made: string | null = null;
    loadMedia(path).then(
      (blobUrl) => {
        made = blobUrl;
        if (live) setUrl(blobUrl);
        else URL.revokeObjectURL(blobUrl);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [path, loadMedia]);
  if (failed) return <p className="chat-media-missing">{t('chat.mediaUnavailable')}</p>;
  if (!url) return <div className="chat-media-loading" aria-label={t('chat.loadingMedia')} role="img" />;
  if (fileType === 'video') {
    return (
      <video className="chat-media" src={url} controls preload="metadata" aria-label={name}>
        {/* Members' own clips have no captions; the empty track satisfies players and checkers. */}
        <track kind="captions" />
      </video>
    );
  }
  if (fileType === 'image') return <img className="chat-media" src={url} alt={name} />;
  return (
    <a href={url} download={name}>
      {name}
    </a>
  );
}

function Body({ message, onAction, loadMedia, localPreview }: { message: Message; onAction?: Props['onAction']; loadMedia: Props['loadMedia']; localPreview?: string }) {
  const { t } = useTranslation();
  switch (message.message_type) {
    case 'text':
      return <p className="chat-text">{message.payload}</p>;
    case 'postback':
      return <p className="chat-text">{message.payload.title}</p>;
    case 'buttons':
      return (
        <div className="chat-stack">
          <p className="chat-text">{message.payload.text}</p>
          <div className="chat-actions">
            {message.payload.buttons.map((button, i) => (
              <ButtonView key={i} button={button} onAction={onAction} />
            ))}
          </div>
        </div>
      );
    case 'quick_replies':
      return (
        <div className="chat-stack">
          <p className="chat-text">{message.payload.text}</p>
          <div className="chat-quick">
            {message.payload.quick_replies.map((reply, i) => (
              <button key={i} type="button" className="chat-chip" disabled={!onAction} onClick={() => onAction?.(quickAction(reply))}>
                {reply.title}
              </button>
            ))}
          </div>
        </div>
      );
    case 'generic':
      return (
        <ul className="chat-cards" aria-label={t('chat.cards')}>
          {message.payloads.map((card, i) => (
            <li key={i} className="chat-card">
              <CardImage url={card.image_url} />
              <p className="chat-card-title">{card.title}</p>
              {card.subtitle && <p className="chat-card-subtitle">{card.subtitle}</p>}
              {card.buttons && card.buttons.length > 0 && (
                <div className="chat-actions">
                  {card.buttons.map((button, j) => (
                    <ButtonView key={j} button={button} onAction={onAction} />
                  ))}
                </div>
              )}
            </li>
          ))}
        </ul>
      );
    case 'media':
      if (localPreview) return <p className="chat-text">{message.payload.message}</p>;
      return (
        <Media
          path={message.payload.filePath}
          name={message.payload.message}
          fileType={message.payload.fileType ?? 'file'}
          loadMedia={loadMedia}
        />
      );
    default:
      return <p className="chat-text muted">{t('chat.unknown')}</p>;
  }
}

export function MessageView({ item, mine, onAction, loadMedia, onRetry }: Props) {
  const { t, i18n } = useTranslation();
  const pendingUpload = item.delivery === 'uploading_file' || (item.message.message_type === 'media' && !item.id && !item.uploadedPath);
  return (
    <li className={`chat-row ${mine ? 'chat-row-mine' : 'chat-row-theirs'}`}>
      <div className={`chat-bubble ${mine ? 'chat-bubble-mine' : ''}`}>
        {/* The bot's name is the app's word for it, in the UI's language. */}
        {!mine && item.sender === 'bot' ? (
          <p className="chat-name">{t('chat.bot')}</p>
        ) : (
          !mine && item.name && <p className="chat-name">{item.name}</p>
        )}
        <Body message={item.message} onAction={onAction} loadMedia={loadMedia} localPreview={pendingUpload ? 'local' : undefined} />
        <div className="chat-meta">
          {item.delivery === 'uploading_file' && (
            <>
              <progress max={1} value={item.progress ?? 0} aria-label={t('chat.uploading')} />
              <span>{t('chat.uploadingPercent', { percent: Math.round((item.progress ?? 0) * 100) })}</span>
            </>
          )}
          {item.delivery === 'sending' && <span>{t('chat.sending')}</span>}
          {item.delivery === 'failed' && (
            <>
              <span className="chat-failed">
                <Icon name="alert" size={14} /> {t('chat.failed')}
              </span>
              {/* A stored message (a LINE send) is retried by the server, never sent again here. */}
              {onRetry && !item.id && (
                <button type="button" className="chat-retry" onClick={() => onRetry(item)}>
                  {t('chat.retry')}
                </button>
              )}
            </>
          )}
          {(item.delivery === 'succeed' || !item.delivery) && item.createdAt && (
            <time dateTime={item.createdAt}>
              {time(item.createdAt, i18n.language)}
              {mine && <Icon name="check" size={12} label={t('chat.sent')} />}
            </time>
          )}
        </div>
      </div>
    </li>
  );
}
