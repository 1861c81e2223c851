/**
 * The agent inbox's calls (/api/agent/*). Agents are back-office staff: they log in with the
 * back office's two steps (password, then the authenticator's code; /api/backoffice/auth/*) and
 * the staff session's token is the agent token. It lives in sessionStorage 'agent-token', apart
 * from the member token, and is sent only on these calls. Its own fetch wrapper: an agent's 401
 * shows the agent login, never the member /login.
 */
import type { ApiBody, ApiData } from '@/lib/api-client';
import { CLIENT_HEADER, CLIENT_MARKER } from '@/lib/api-client';
import { ApiError, NETWORK_ERROR } from '@/lib/errors';
import { fetchBlobUrl, uploadWithProgress } from '@/lib/chat/transfer';
import type { AgentMessage, MediaKind } from '@/lib/chat/types';

const AGENT_TOKEN_KEY = 'agent-token';

export function getAgentToken(): string | null {
  try {
    return sessionStorage.getItem(AGENT_TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setAgentToken(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(AGENT_TOKEN_KEY, token);
    else sessionStorage.removeItem(AGENT_TOKEN_KEY);
  } catch {
    // storage disabled: the agent logs in again after a reload
  }
}

function authHeaders(): Record<string, string> {
  const token = getAgentToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

function agentError(status: number, body: unknown): ApiError {
  const message = (body as { message?: unknown } | undefined)?.message;
  return new ApiError(status, typeof message === 'string' ? message : `HTTP_${status}`);
}

async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        ...authHeaders(),
        [CLIENT_HEADER]: CLIENT_MARKER,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, NETWORK_ERROR);
  }
  const text = await response.text();
  const data = text ? (JSON.parse(text) as unknown) : undefined;
  if (!response.ok) throw agentError(response.status, data);
  return data as T;
}

/** Login step 1: the password; answers a ticket, and the enrolment on a first login. */
export function staffPassword(body: ApiBody<'/api/backoffice/auth/login', 'post'>) {
  return call<ApiData<'/api/backoffice/auth/login', 'post'>>('POST', '/api/backoffice/auth/login', body);
}

/** Login step 2: the authenticator's code; answers the session token. */
export function staffCode(body: ApiBody<'/api/backoffice/auth/totp', 'post'>) {
  return call<ApiData<'/api/backoffice/auth/totp', 'post'>>('POST', '/api/backoffice/auth/totp', body);
}

export function agentLogout() {
  return call<undefined>('POST', '/api/backoffice/auth/logout');
}

export function agentMe() {
  return call<ApiData<'/api/agent/me', 'get'>>('GET', '/api/agent/me');
}

export function agentConversations() {
  return call<ApiData<'/api/agent/conversations', 'get'>>('GET', '/api/agent/conversations');
}

export function agentHistory(conversationId: string, skip: number, limit: number) {
  return call<ApiData<'/api/agent/conversations/{conversation_id}/messages', 'get'>>(
    'GET',
    `/api/agent/conversations/${encodeURIComponent(conversationId)}/messages?limit=${limit}&skip=${skip}`,
  );
}

export function agentSend(conversationId: string, message: AgentMessage, clientId: string) {
  return call<ApiData<'/api/agent/conversations/{conversation_id}/messages', 'post'>>(
    'POST',
    `/api/agent/conversations/${encodeURIComponent(conversationId)}/messages`,
    { message, clientId },
  );
}

export function agentRead(conversationId: string) {
  return call<ApiData<'/api/agent/conversations/{conversation_id}/read', 'put'>>(
    'PUT',
    `/api/agent/conversations/${encodeURIComponent(conversationId)}/read`,
  );
}

export function agentUpload(
  conversationId: string,
  kind: MediaKind,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<string> {
  return uploadWithProgress(
    `/api/agent/conversations/${encodeURIComponent(conversationId)}/upload-${kind}`,
    file,
    authHeaders(),
    onProgress,
    agentError,
  );
}

export function agentMediaBlob(path: string): Promise<string> {
  return fetchBlobUrl(`/api/agent/media/${path.split('/').map(encodeURIComponent).join('/')}`, authHeaders());
}
