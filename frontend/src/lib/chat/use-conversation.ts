/**
 * A conversation on screen, for the customer's widget and the agent's inbox alike: history
 * pages, live messages merged without duplicates, what was missed while the socket was not in its
 * room (`catchUp`), our own messages with their delivery states (uploading_file → sending →
 * succeed | failed, retryable) and read marks debounced by 1 s.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { uuid } from '@/lib/uuid';
import {
  HISTORY_PAGE,
  READ_DEBOUNCE_MS,
  fetchMissed,
  mergeIncoming,
  prependHistory,
  storedCount,
  type ChatItem,
  type MediaKind,
  type Message,
  type WireMessage,
} from './types';

export type ConversationTransport<M extends Message> = {
  history: (skip: number, limit: number) => Promise<WireMessage[]>;
  send: (message: M, clientId: string) => Promise<{ timestamp: string; _id: string }>;
  upload: (kind: MediaKind, file: File, onProgress: (fraction: number) => void) => Promise<string>;
  markRead: () => Promise<unknown>;
};

type Options<M extends Message> = {
  transport: ConversationTransport<M> | null;
  /** Which sender is "us" (customer for the widget, agent for the inbox). */
  side: 'customer' | 'agent';
  onError: (error: unknown) => void;
};

export function useConversation<M extends Message>({ transport, side, onError }: Options<M>) {
  const [items, setItems] = useState<ChatItem[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  // The list as last shown, for what is fetched next (older pages, missed messages).
  const shown = useRef(items);
  const errors = useRef(onError);
  useEffect(() => {
    errors.current = onError;
  }, [onError]);
  useEffect(() => {
    shown.current = items;
  }, [items]);

  const update = useCallback((key: string, patch: Partial<ChatItem>) => {
    setItems((list) => list.map((item) => (item.key === key ? { ...item, ...patch } : item)));
  }, []);

  const loadEarlier = useCallback(async () => {
    if (!transport) return;
    setLoading(true);
    try {
      const page = await transport.history(storedCount(shown.current), HISTORY_PAGE);
      setHasMore(page.length === HISTORY_PAGE);
      setItems((list) => prependHistory(list, page));
    } catch (error) {
      errors.current(error);
    } finally {
      setLoading(false);
    }
  }, [transport]);

  // The first page once the transport is there (a new conversation remounts with its key).
  useEffect(() => {
    if (!transport) return undefined;
    let live = true;
    transport.history(0, HISTORY_PAGE).then(
      (page) => {
        if (!live) return;
        setHasMore(page.length === HISTORY_PAGE);
        setItems((list) => prependHistory(list, page));
        setLoading(false);
      },
      (error: unknown) => {
        if (!live) return;
        setLoading(false);
        errors.current(error);
      },
    );
    return () => {
      live = false;
    };
  }, [transport]);

  const receive = useCallback((wire: WireMessage) => {
    setItems((list) => mergeIncoming(list, wire));
  }, []);

  /** After the socket (re)joined its room: merge what was stored while it was not in it. */
  const catchUp = useCallback(async () => {
    if (!transport) return;
    try {
      const missed = await fetchMissed(shown.current, transport.history);
      setItems((list) => missed.reduce(mergeIncoming, list));
    } catch (error) {
      errors.current(error);
    }
  }, [transport]);

  const deliver = useCallback(
    async (key: string, clientId: string, message: M) => {
      if (!transport) return;
      update(key, { delivery: 'sending' });
      try {
        const sent = await transport.send(message, clientId);
        setItems((list) =>
          list.map((item) =>
            item.key === key ? { ...item, id: sent._id, createdAt: sent.timestamp, delivery: 'succeed' } : item,
          ),
        );
      } catch (error) {
        update(key, { delivery: 'failed' });
        errors.current(error);
      }
    },
    [transport, update],
  );

  const send = useCallback(
    (message: M) => {
      const clientId = uuid();
      setItems((list) => [...list, { key: clientId, clientId, sender: side, message, delivery: 'sending' }]);
      void deliver(clientId, clientId, message);
    },
    [deliver, side],
  );

  const uploadAndSend = useCallback(
    async (key: string, clientId: string, kind: MediaKind, file: File) => {
      if (!transport) return;
      update(key, { delivery: 'uploading_file', progress: 0 });
      let path: string;
      try {
        path = await transport.upload(kind, file, (progress) => update(key, { progress }));
      } catch (error) {
        update(key, { delivery: 'failed' });
        errors.current(error);
        return;
      }
      const message = {
        message_type: 'media',
        payload: { message: file.name, url: true, fileType: kind, filePath: path },
      } as M;
      update(key, { uploadedPath: path, message });
      await deliver(key, clientId, message);
    },
    [transport, update, deliver],
  );

  const sendFile = useCallback(
    (kind: MediaKind, file: File) => {
      const clientId = uuid();
      const placeholder = {
        message_type: 'media',
        payload: { message: file.name, url: true, fileType: kind, filePath: '' },
      } as Message;
      setItems((list) => [
        ...list,
        { key: clientId, clientId, sender: side, message: placeholder, delivery: 'uploading_file', progress: 0, file },
      ]);
      void uploadAndSend(clientId, clientId, kind, file);
    },
    [side, uploadAndSend],
  );

  const retry = useCallback(
    (item: ChatItem) => {
      const clientId = item.clientId ?? item.key;
      if (item.file && !item.uploadedPath) {
        const kind = item.message.message_type === 'media' && item.message.payload.fileType === 'video' ? 'video' : 'image';
        void uploadAndSend(item.key, clientId, kind, item.file);
      } else {
        void deliver(item.key, clientId, item.message as M);
      }
    },
    [deliver, uploadAndSend],
  );

  // Read marks: whenever the other side's messages change, once things settle for 1 s.
  const theirs = items.filter((item) => item.sender !== side).length;
  useEffect(() => {
    if (!transport || theirs === 0) return undefined;
    const timer = window.setTimeout(() => {
      transport.markRead().catch(() => undefined);
    }, READ_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [transport, theirs]);

  return { items, hasMore, loading, loadEarlier, receive, catchUp, send, sendFile, retry };
}
