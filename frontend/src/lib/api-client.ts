/**
 * The one HTTP client of the app, typed by the generated contract (src/api/schema.gen.ts):
 * relative /api base, bearer token and wallet marker headers, the UI's language as
 * Accept-Language (the server answers operator texts in it, ADR 0011), 60 s time-out (300 s for
 * uploads), errors turned into ApiError and routed per spec §8. Success bodies are the data itself.
 */
import type { paths } from '@/api/schema.gen';
import { CLIENT_HEADER, CLIENT_MARKER, takeEarly } from './early-requests';
import { ApiError, NETWORK_ERROR, TIMEOUT, errorRoute, type ErrorRoute } from './errors';
import { currentLocale } from './i18n';
import { languageTag } from './locales';
import { getToken } from './storage';
import { DEVICE_HEADER, deviceId } from './device-id';

export { CLIENT_HEADER, CLIENT_MARKER };
export const TIMEOUT_MS = 60_000;
export const UPLOAD_TIMEOUT_MS = 300_000;

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Paths of the contract that accept a method. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: NonNullable<paths[P][M & keyof paths[P]]> extends never ? never : P;
}[keyof paths];

type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M & keyof paths[P]]>;

/** Response body type of a path and method from the generated contract. */
export type ApiData<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R }
    ? {
        [K in keyof R]: K extends 200 | 201
          ? R[K] extends { content: { 'application/json': infer T } }
            ? T
            : never
          : never;
      }[keyof R]
    : never;

/** Request body type of a path and method from the generated contract. */
export type ApiBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export type RequestOptions = {
  headers?: Record<string, string>;
  /** Values for `{name}` segments of the path. */
  params?: Record<string, string | number>;
  /** Query string values; undefined ones are left out. */
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
  /** The bearer token to send instead of the member's (the back office sends its staff token). */
  token?: string | null;
};

type RouteListener = (route: Exclude<ErrorRoute, null>) => void;
let routeListener: RouteListener | null = null;

/** The app registers how to leave for /terminated or /login; lib code cannot navigate itself. */
export function onErrorRoute(listener: RouteListener | null): void {
  routeListener = listener;
}

const BOUNDS = ['minimum', 'min', 'max', 'maxMb', 'maxPixels', 'remaining'] as const;

/** Turns an error body into an ApiError and sends the browser where spec §8 says. */
export function toApiError(status: number, body: unknown): ApiError {
  const record = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const message =
    typeof record.message === 'string'
      ? record.message
      : typeof record.detail === 'string'
        ? record.detail
        : status >= 500
          ? 'INTERNAL_SERVER_ERROR'
          : `HTTP_${status}`;
  const field = typeof record.field === 'string' ? record.field : undefined;
  // A refusal names the bounds it missed (an amount's minimum for QR and TrueMoney, a count's min
  // and max in the back office's bonus editor, what a deposit limit still allows): the text shows them.
  const details: Record<string, string | number> = {};
  for (const key of BOUNDS) if (typeof record[key] === 'number') details[key] = record[key];
  // The rule a 422 says the field breaks (min, required, number, …): forms say it beside it.
  if (typeof record.rule === 'string') details.rule = record.rule;
  // OTP_BLOCK with reserve: the SMS reserve opens to a proof of work (features/register).
  if (record.reserve === true) details.reserve = 1;
  const retryAfter = typeof record.retryAfter === 'number' ? record.retryAfter : undefined;
  const error = new ApiError(status, message, field, details, retryAfter);
  const route = errorRoute(message);
  if (route && routeListener) {
    error.redirected = true;
    routeListener(route);
  }
  return error;
}

function buildUrl(path: string, { params, query }: RequestOptions): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${filled}?${text}` : filled;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `response`, or a rejection when `signal` aborts first (a request index.html started cannot be
 * aborted itself, but its caller stops waiting for it). */
function untilAborted(response: Promise<Response>, signal: AbortSignal): Promise<Response> {
  return new Promise((resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason as Error));
    response.then(resolve, reject);
  });
}

/**
 * One request: adds headers, applies the time-out, returns the body or throws an ApiError. A GET
 * that index.html already started for the first screen (lib/early-requests.ts) is not sent again.
 */
export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const isUpload = body instanceof FormData;
  const headers = new Headers(options.headers);
  headers.set(CLIENT_HEADER, CLIENT_MARKER);
  headers.set(DEVICE_HEADER, deviceId());
  // The language the UI shows, not the browser's: bonus names, banners, the wheel, statement
  // notes and the chat bot come back in it. (index.html's early requests carry the browser's,
  // which is why only data without operator texts is fetched early.)
  if (!headers.has('Accept-Language')) headers.set('Accept-Language', languageTag(currentLocale()));
  const token = options.token === undefined ? getToken() : options.token;
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
  if (body !== undefined && !isUpload) headers.set('Content-Type', 'application/json');

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      controller.abort();
    },
    isUpload ? UPLOAD_TIMEOUT_MS : TIMEOUT_MS,
  );
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort);

  const url = buildUrl(path, options);
  // Only a plain GET: index.html sends no other headers than these.
  const early = method === 'GET' && !options.headers ? takeEarly(url, token) : undefined;
  let response: Response;
  try {
    response = await (early
      ? untilAborted(early, controller.signal)
      : fetch(url, {
          method,
          headers,
          body: body === undefined ? undefined : isUpload ? body : JSON.stringify(body),
          signal: controller.signal,
        }));
  } catch (error) {
    if (timedOut) throw new ApiError(0, TIMEOUT);
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, NETWORK_ERROR);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
  const data = await readBody(response);
  if (!response.ok) throw toApiError(response.status, data);
  return data as T;
}

export const api = {
  get: <P extends PathsWith<'get'>>(path: P, options?: RequestOptions) =>
    request<ApiData<P, 'get'>>('GET', path, undefined, options),
  post: <P extends PathsWith<'post'>>(path: P, body?: ApiBody<P, 'post'>, options?: RequestOptions) =>
    request<ApiData<P, 'post'>>('POST', path, body, options),
  put: <P extends PathsWith<'put'>>(path: P, body?: ApiBody<P, 'put'>, options?: RequestOptions) =>
    request<ApiData<P, 'put'>>('PUT', path, body, options),
  delete: <P extends PathsWith<'delete'>>(path: P, options?: RequestOptions) =>
    request<ApiData<P, 'delete'>>('DELETE', path, undefined, options),
};
