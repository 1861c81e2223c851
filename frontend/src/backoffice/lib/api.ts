/**
 * The back office's HTTP client: the app's one client (lib/api-client.ts), typed by the same
 * generated contract, sending the staff token (never the member's) on /api/backoffice routes.
 * A 423 SESSION_LOCKED answer (idle) locks the screen (lib/lock.ts).
 */
import { request, type ApiBody, type ApiData, type PathsWith, type RequestOptions } from '@/lib/api-client';
import { ApiError } from '@/lib/errors';
import { markLocked } from './lock';
import { getStaffToken } from './session';

export const SESSION_LOCKED = 'SESSION_LOCKED';

function watch<T>(answer: Promise<T>): Promise<T> {
  return answer.catch((error: unknown) => {
    if (error instanceof ApiError && error.code === SESSION_LOCKED) markLocked();
    throw error;
  });
}

type BackOffice<P> = P extends `/api/backoffice/${string}` ? P : never;
type Options = Omit<RequestOptions, 'token'>;

const withToken = (options?: Options): RequestOptions => ({ ...options, token: getStaffToken() });

export const boApi = {
  get: <P extends BackOffice<PathsWith<'get'>>>(path: P, options?: Options) =>
    watch(request<ApiData<P, 'get'>>('GET', path, undefined, withToken(options))),
  post: <P extends BackOffice<PathsWith<'post'>>>(path: P, body?: ApiBody<P, 'post'>, options?: Options) =>
    watch(request<ApiData<P, 'post'>>('POST', path, body, withToken(options))),
  patch: <P extends BackOffice<PathsWith<'patch'>>>(path: P, body: ApiBody<P, 'patch'>, options?: Options) =>
    watch(request<ApiData<P, 'patch'>>('PATCH', path, body, withToken(options))),
  put: <P extends BackOffice<PathsWith<'put'>>>(path: P, body: ApiBody<P, 'put'>, options?: Options) =>
    watch(request<ApiData<P, 'put'>>('PUT', path, body, withToken(options))),
  delete: <P extends BackOffice<PathsWith<'delete'>>>(path: P, options?: Options) =>
    watch(request<ApiData<P, 'delete'>>('DELETE', path, undefined, withToken(options))),
};
