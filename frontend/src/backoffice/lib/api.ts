/**
 * The back office's HTTP client: the app's one client (lib/api-client.ts), typed by the same
 * generated contract, sending the staff token (never the member's) on /api/backoffice routes.
 */
import { request, type ApiBody, type ApiData, type PathsWith, type RequestOptions } from '@/lib/api-client';
import { getStaffToken } from './session';

type BackOffice<P> = P extends `/api/backoffice/${string}` ? P : never;
type Options = Omit<RequestOptions, 'token'>;

const withToken = (options?: Options): RequestOptions => ({ ...options, token: getStaffToken() });

export const boApi = {
  get: <P extends BackOffice<PathsWith<'get'>>>(path: P, options?: Options) =>
    request<ApiData<P, 'get'>>('GET', path, undefined, withToken(options)),
  post: <P extends BackOffice<PathsWith<'post'>>>(path: P, body?: ApiBody<P, 'post'>, options?: Options) =>
    request<ApiData<P, 'post'>>('POST', path, body, withToken(options)),
  patch: <P extends BackOffice<PathsWith<'patch'>>>(path: P, body: ApiBody<P, 'patch'>, options?: Options) =>
    request<ApiData<P, 'patch'>>('PATCH', path, body, withToken(options)),
  put: <P extends BackOffice<PathsWith<'put'>>>(path: P, body: ApiBody<P, 'put'>, options?: Options) =>
    request<ApiData<P, 'put'>>('PUT', path, body, withToken(options)),
  delete: <P extends BackOffice<PathsWith<'delete'>>>(path: P, options?: Options) =>
    request<ApiData<P, 'delete'>>('DELETE', path, undefined, withToken(options)),
};
