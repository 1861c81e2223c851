/**
 * The support inbox's calls. The inbox itself (views, assignment) is the back office's
 * (/api/backoffice/chat, through boApi); a conversation's messages are the chat's own agent
 * routes (/api/agent/*), which take the same staff session token, so the back office and the
 * /agent inbox read and write messages through one implementation.
 */
import type { components } from '@/api/schema.gen';
import { request, toApiError, type ApiData } from '@/lib/api-client';
import { fetchBlobUrl, uploadWithProgress } from '@/lib/chat/transfer';
import type { AgentMessage, MediaKind } from '@/lib/chat/types';
import { boApi } from '../../lib/api';
import { getStaffToken } from '../../lib/session';

export type InboxConversation = components['schemas']['InboxConversationOut'];
export type InboxView = 'mine' | 'unassigned' | 'all';
export type ChatAgent = components['schemas']['ChatAgentOut'];

export const inboxKeys = {
  all: ['bo', 'chat'] as const,
  list: (view: InboxView, page: number) => ['bo', 'chat', 'list', view, page] as const,
  one: (id: number) => ['bo', 'chat', 'one', id] as const,
  agents: ['bo', 'chat', 'agents'] as const,
};

export const INBOX_PAGE = 30;

export function fetchInbox(view: InboxView, page: number, signal?: AbortSignal) {
  return boApi.get('/api/backoffice/chat/conversations', { query: { view, page, limit: INBOX_PAGE }, signal });
}

export function fetchConversation(id: number, signal?: AbortSignal) {
  return boApi.get('/api/backoffice/chat/conversations/{conversation_id}', { params: { conversation_id: id }, signal });
}

export function fetchAgents(signal?: AbortSignal) {
  return boApi.get('/api/backoffice/chat/agents', { signal });
}

export function assignConversation(id: number, staffId: number, replace: boolean) {
  return boApi.post(
    '/api/backoffice/chat/conversations/{conversation_id}/assign',
    { staffId, replace },
    { params: { conversation_id: id } },
  );
}

export function unassignConversation(id: number) {
  return boApi.post('/api/backoffice/chat/conversations/{conversation_id}/unassign', undefined, {
    params: { conversation_id: id },
  });
}

// ----- messages: the chat's agent routes, with the staff token ----------------------------

const staff = () => ({ token: getStaffToken() });
const authHeaders = (): Record<string, string> => {
  const token = getStaffToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
};

export function fetchMessages(id: number, skip: number, limit: number) {
  return request<ApiData<'/api/agent/conversations/{conversation_id}/messages', 'get'>>(
    'GET',
    '/api/agent/conversations/{conversation_id}/messages',
    undefined,
    { ...staff(), params: { conversation_id: id }, query: { skip, limit } },
  );
}

export function sendMessage(id: number, message: AgentMessage, clientId: string) {
  return request<ApiData<'/api/agent/conversations/{conversation_id}/messages', 'post'>>(
    'POST',
    '/api/agent/conversations/{conversation_id}/messages',
    { message, clientId },
    { ...staff(), params: { conversation_id: id } },
  );
}

export function markRead(id: number) {
  return request<ApiData<'/api/agent/conversations/{conversation_id}/read', 'put'>>(
    'PUT',
    '/api/agent/conversations/{conversation_id}/read',
    undefined,
    { ...staff(), params: { conversation_id: id } },
  );
}

export function uploadFile(id: number, kind: MediaKind, file: File, onProgress: (fraction: number) => void) {
  return uploadWithProgress(`/api/agent/conversations/${id}/upload-${kind}`, file, authHeaders(), onProgress, toApiError);
}

export function mediaBlob(path: string): Promise<string> {
  return fetchBlobUrl(`/api/agent/media/${path.split('/').map(encodeURIComponent).join('/')}`, authHeaders());
}
