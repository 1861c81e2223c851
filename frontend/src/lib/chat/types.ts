/** Chat wire types (generated contract) and the client's own delivery states (spec §3). */
import type { components } from '@/api/schema.gen';

type S = components['schemas'];

export type WireMessage = S['ConversationOut'];
export type Message = WireMessage['message'];
export type CustomerMessage = S['SendMessageIn']['message'];
export type AgentMessage = S['AgentSendIn']['message'];
export type Button = S['ButtonsPayload']['buttons'][number];
export type QuickReply = S['QuickReply'];
export type ConversationSummary = S['ConversationSummaryOut'];
export type AgentProfile = S['AgentOut'];

export type Delivery = 'uploading_file' | 'sending' | 'failed' | 'succeed';
export type MediaKind = 'image' | 'video';

/** One row of a conversation on screen: a stored message, or one of ours still on its way. */
export type ChatItem = {
  key: string;
  id?: string;
  clientId?: string;
  sender: WireMessage['sender'];
  message: Message;
  createdAt?: string;
  name?: string;
  delivery?: Delivery;
  progress?: number;
  /** A media item's file, kept to retry the upload. */
  file?: File;
  /** Set once the upload succeeded, so a retry only resends the message. */
  uploadedPath?: string;
};

export const MAX_TEXT = 2000;
export const HISTORY_PAGE = 10;
export const SCROLL_BOTTOM_PX = 60;
export const READ_DEBOUNCE_MS = 1000;
export const REJOIN_MS = 5000;
export const RECONNECT_DELAY_MS = 500;
export const ALERT_MS = 4000;
export const UPLOAD_TIMEOUT_MS = 300_000;

export function fromWire(wire: WireMessage): ChatItem {
  return {
    key: wire._id,
    id: wire._id,
    clientId: wire.clientId ?? undefined,
    sender: wire.sender,
    message: wire.message,
    createdAt: wire.createdAt,
    name: wire.name,
    // A message to a LINE user carries LINE's answer (sending, failed while the server retries).
    delivery: wire.delivery ?? 'succeed',
  };
}

/** Whether message id `a` was stored before `b`: ids are increasing integers, history's order. */
function storedBefore(a: string, b: string): boolean {
  return a.length === b.length ? a < b : a.length < b.length;
}

/**
 * Adds a stored message to the list: it confirms our own pending copy (same clientId or id)
 * instead of appearing twice when both the HTTP answer and the socket echo arrive. A new one goes
 * in before any later stored message (one missed while offline and fetched after a newer one
 * arrived live), else at the end.
 */
export function mergeIncoming(items: ChatItem[], wire: WireMessage): ChatItem[] {
  const index = items.findIndex(
    (item) => item.id === wire._id || (wire.clientId && item.clientId === wire.clientId),
  );
  if (index < 0) {
    const later = items.findIndex((item) => item.id !== undefined && storedBefore(wire._id, item.id));
    return later < 0 ? [...items, fromWire(wire)] : [...items.slice(0, later), fromWire(wire), ...items.slice(later)];
  }
  const next = items.slice();
  const current = next[index] as ChatItem;
  next[index] = {
    ...current,
    id: wire._id,
    createdAt: wire.createdAt,
    delivery: wire.delivery ?? 'succeed',
    message: wire.message,
  };
  return next;
}

/** Display order (oldest first) from a page of history (newest first), older pages in front. */
export function prependHistory(items: ChatItem[], page: WireMessage[]): ChatItem[] {
  const known = new Set(items.map((item) => item.id).filter(Boolean));
  const older = page
    .filter((wire) => !known.has(wire._id))
    .reverse()
    .map(fromWire);
  return [...older, ...items];
}

/** How many messages on screen the server has stored: the history offset of the next older page. */
export function storedCount(items: ChatItem[]): number {
  return items.filter((item) => item.id !== undefined).length;
}

/**
 * The stored messages `items` lacks at the new end, oldest first: history pages, newest first,
 * until one reaches a message already on screen (or the history's start). With nothing stored on
 * screen yet, the newest page is enough; older ones are the reader's "earlier" button.
 */
export async function fetchMissed(
  items: ChatItem[],
  history: (skip: number, limit: number) => Promise<WireMessage[]>,
): Promise<WireMessage[]> {
  const known = new Set(items.flatMap((item) => (item.id === undefined ? [] : [item.id])));
  const missed: WireMessage[] = [];
  for (let skip = 0; ; skip += HISTORY_PAGE) {
    const page = await history(skip, HISTORY_PAGE);
    const reached = page.findIndex((wire) => known.has(wire._id));
    missed.push(...(reached < 0 ? page : page.slice(0, reached)));
    if (reached >= 0 || page.length < HISTORY_PAGE || known.size === 0) break;
  }
  return missed.reverse();
}

const IMAGE_TYPES = ['png', 'jpeg', 'jpg', 'gif'];
const VIDEO_TYPES = ['mp4', 'mov', 'qt'];
export const ACCEPT = 'image/png,image/jpeg,image/gif,video/mp4,video/quicktime,.png,.jpg,.jpeg,.gif,.mp4,.mov';
const MB = 1024 * 1024;
export const MAX_MB: Record<MediaKind, number> = { image: 10, video: 20 };

export type FileCheck = { ok: true; kind: MediaKind } | { ok: false; reason: 'unsupported' } | { ok: false; reason: 'tooLarge'; maxMb: number };

/** Spec §5: the extension decides the kind; no extension or another one is not supported. */
export function checkFile(file: File): FileCheck {
  const dot = file.name.lastIndexOf('.');
  const extension = dot > 0 ? file.name.slice(dot + 1).toLowerCase() : '';
  const kind: MediaKind | null = IMAGE_TYPES.includes(extension)
    ? 'image'
    : VIDEO_TYPES.includes(extension)
      ? 'video'
      : null;
  if (!kind) return { ok: false, reason: 'unsupported' };
  if (file.size > MAX_MB[kind] * MB) return { ok: false, reason: 'tooLarge', maxMb: MAX_MB[kind] };
  return { ok: true, kind };
}

/** Text a customer may send: not blank, at most 2000 characters. */
export function sendableText(text: string): boolean {
  return text.trim().length > 0 && text.length <= MAX_TEXT;
}
