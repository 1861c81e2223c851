/**
 * The customer side of the chat (spec §7 Chat): config, history, sending, read marks, uploads
 * with progress, and media fetched with the caller's credentials (there is no public URL).
 *
 * A member is identified by its bearer token (added by the api client); a visitor by its guest
 * id — a random UUID created once and kept in localStorage 'guest-id' — sent as X-Guest-Id.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { uploadWithProgress } from '@/lib/chat/transfer';
import { getToken, readLocal, STORAGE_KEYS, writeLocal } from '@/lib/storage';
import { uuid } from '@/lib/uuid';
import type { CustomerMessage, MediaKind, WireMessage } from '@/lib/chat/types';

export const GUEST_HEADER = 'X-Guest-Id';
const GUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The visitor's guest id, created and stored on first use. */
export function guestId(): string {
  const stored = readLocal(STORAGE_KEYS.guestId);
  if (stored && GUEST_ID.test(stored)) return stored;
  const fresh = uuid().toLowerCase();
  writeLocal(STORAGE_KEYS.guestId, fresh);
  return fresh;
}

export type Identity = { kind: 'member'; token: string; userId: string } | { kind: 'guest'; guestId: string };

export function identityHeaders(identity: Identity): Record<string, string> {
  return identity.kind === 'member'
    ? { Authorization: `Bearer ${identity.token}` }
    : { [GUEST_HEADER]: identity.guestId };
}

function owner(identity: Identity) {
  return identity.kind === 'member' ? { userId: identity.userId } : { guestId: identity.guestId };
}

export const chatQueries = {
  enabled: () =>
    queryOptions({
      queryKey: ['lookup', 'enableChatWidget'],
      queryFn: () => api.get('/api/lookup/enableChatWidget'),
      staleTime: 60_000,
    }),
  config: () =>
    queryOptions({
      queryKey: ['chat', 'config'],
      queryFn: () => api.get('/api/chat/config'),
      staleTime: 5 * 60_000,
    }),
};

/** Who is chatting: the member behind the stored token, else this browser's guest. */
export async function resolveIdentity(): Promise<Identity> {
  const token = getToken();
  if (token) {
    const profile = await api.get('/api/account/profile');
    return { kind: 'member', token, userId: String(profile.profile._id) };
  }
  return { kind: 'guest', guestId: guestId() };
}

export function fetchHistory(identity: Identity, skip: number, limit: number): Promise<WireMessage[]> {
  return api.post(
    '/api/chat/history',
    { ...owner(identity), limit, skip },
    { headers: identityHeaders(identity) },
  );
}

export function sendMessage(identity: Identity, message: CustomerMessage, clientId: string) {
  return api.post(
    '/api/chat/send-message',
    { ...owner(identity), message, clientId, sender: 'customer' },
    { headers: identityHeaders(identity) },
  );
}

export function markRead(identity: Identity) {
  return api.put('/api/chat/read-customer/', owner(identity), { headers: identityHeaders(identity) });
}

export function uploadMedia(
  identity: Identity,
  kind: MediaKind,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<string> {
  return uploadWithProgress(`/api/chat/upload-${kind}`, file, identityHeaders(identity), onProgress);
}

export function customerMediaUrl(path: string): string {
  return `/api/chat/media/${path.split('/').map(encodeURIComponent).join('/')}`;
}
