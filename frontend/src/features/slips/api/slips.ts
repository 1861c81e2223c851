/**
 * Slip deposits: the upload (POST /api/wallet/slip, multipart, XHR for progress, 300 s), the
 * member's slips (POST /api/statement/slip) and a slip image (owner-only, fetched as a blob).
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  CLIENT_HEADER,
  CLIENT_MARKER,
  UPLOAD_TIMEOUT_MS,
  api,
  toApiError,
  type ApiData,
} from '@/lib/api-client';
import { ApiError, NETWORK_ERROR, TIMEOUT } from '@/lib/errors';
import { SITE, safeUrl } from '@/lib/safe-url';
import { getToken } from '@/lib/storage';

export const SLIP_PAGE_SIZE = 10;

export type SlipUploadResult = ApiData<'/api/wallet/slip', 'post'>;
export type SlipPage = ApiData<'/api/statement/slip', 'post'>;
export type Slip = SlipPage['slips'][number];

/** A refused upload: the catalogue code and, for SLIP_UPLOAD_FAIL, the reason. */
export class SlipUploadError extends ApiError {
  constructor(
    status: number,
    code: string,
    readonly reason?: string,
  ) {
    super(status, code);
    this.name = 'SlipUploadError';
  }
}

/** The server's answer to an upload, as an outcome or an error (pure, tested). */
export function readUploadAnswer(status: number, text: string): SlipUploadResult {
  let body: unknown;
  try {
    body = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    body = text;
  }
  if (status >= 200 && status < 300 && body && typeof body === 'object' && 'slip' in body) {
    return body as SlipUploadResult;
  }
  const error = toApiError(status || 500, body);
  const reason =
    body && typeof body === 'object' && typeof (body as { reason?: unknown }).reason === 'string'
      ? (body as { reason: string }).reason
      : undefined;
  const refused = new SlipUploadError(error.status, error.code, reason);
  refused.redirected = error.redirected;
  throw refused;
}

/**
 * Refuses a file the browser knows is not PNG/JPEG. An unknown type (a file without an
 * extension) is let through: the server judges the bytes, never the name.
 */
export function isAcceptedImage(file: { type: string }): boolean {
  return file.type === '' || file.type === 'image/png' || file.type === 'image/jpeg';
}

export type UploadOptions = {
  idempotencyKey: string;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
};

export function uploadSlip(file: Blob, options: UploadOptions): Promise<SlipUploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/wallet/slip');
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.setRequestHeader(CLIENT_HEADER, CLIENT_MARKER);
    xhr.setRequestHeader('Idempotency-Key', options.idempotencyKey);
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && options.onProgress) {
        options.onProgress(event.total ? event.loaded / event.total : 0);
      }
    };
    xhr.onload = () => {
      try {
        resolve(readUploadAnswer(xhr.status, xhr.responseText));
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR));
    xhr.ontimeout = () => reject(new ApiError(0, TIMEOUT));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

export const slipRulesQuery = () =>
  queryOptions({
    queryKey: ['lookup', 'slip'],
    queryFn: () => api.get('/api/lookup/slip'),
    staleTime: 60_000,
  });

export const slipsQuery = (page: number) =>
  queryOptions({
    queryKey: ['slips', page],
    queryFn: () => api.post('/api/statement/slip', { page, limit: SLIP_PAGE_SIZE }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useSlips(page: number, enabled = true) {
  return useQuery({ ...slipsQuery(page), enabled });
}

/** The stored image of one of the member's slips (the bearer token is required). */
export async function fetchSlipImage(link: string): Promise<Blob> {
  // The token goes only to this site: a link anywhere else is not a slip of ours.
  const url = safeUrl(link, SITE);
  if (url === null) throw new ApiError(404, 'NO_DATA');
  const headers = new Headers({ [CLIENT_HEADER]: CLIENT_MARKER });
  const token = getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(url, { headers });
  } catch {
    throw new ApiError(0, NETWORK_ERROR);
  }
  if (!response.ok) {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    throw toApiError(response.status, body);
  }
  return response.blob();
}
