/**
 * The message list of a conversation: earlier pages on demand, and it keeps to the bottom when
 * a message arrives while the reader is within 60 px of it (or when the message is our own).
 */
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { SCROLL_BOTTOM_PX, type ChatItem } from '@/lib/chat/types';
import { MessageView, type ChatAction } from './MessageView';
import './chat.css';

type Props = {
  items: ChatItem[];
  side: 'customer' | 'agent';
  hasMore: boolean;
  loading: boolean;
  onLoadEarlier: () => void;
  onAction?: (action: ChatAction) => void;
  onRetry: (item: ChatItem) => void;
  loadMedia: (path: string) => Promise<string>;
  label: string;
};

export function ChatView({ items, side, hasMore, loading, onLoadEarlier, onAction, onRetry, loadMedia, label }: Props) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const previous = useRef({ first: '', last: '', height: 0, nearBottom: true });

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const first = items[0]?.key ?? '';
    const lastItem = items[items.length - 1];
    const last = lastItem?.key ?? '';
    const before = previous.current;
    if (first !== before.first && last === before.last && before.height) {
      // Earlier messages went in above: keep what the reader was looking at in place.
      el.scrollTop += el.scrollHeight - before.height;
    } else if (last !== before.last && (before.nearBottom || lastItem?.sender === side)) {
      el.scrollTop = el.scrollHeight;
    }
    previous.current = { first, last, height: el.scrollHeight, nearBottom: before.nearBottom };
  }, [items, side]);

  const onScroll = () => {
    const el = box.current;
    if (!el) return;
    previous.current.nearBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= SCROLL_BOTTOM_PX;
    previous.current.height = el.scrollHeight;
  };

  return (
    <div className="chat-scroll" ref={box} onScroll={onScroll}>
      {hasMore && (
        <button type="button" className="chat-earlier" onClick={onLoadEarlier} disabled={loading}>
          {t('chat.earlier')}
        </button>
      )}
      {items.length === 0 && !loading && <p className="chat-empty muted">{t('chat.empty')}</p>}
      <ol className="chat-list" aria-label={label} aria-live="polite">
        {items.map((item) => (
          <MessageView
            key={item.key}
            item={item}
            mine={item.sender === side || (side === 'agent' && item.sender === 'bot')}
            onAction={side === 'customer' ? onAction : undefined}
            onRetry={onRetry}
            loadMedia={loadMedia}
          />
        ))}
      </ol>
    </div>
  );
}
