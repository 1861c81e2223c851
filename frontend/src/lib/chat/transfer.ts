/**
 * Moving chat files over HTTP, for both sides of the chat (the player's widget and the staff
 * inboxes): an upload with progress, and a file fetched with the caller's credentials as an
 * object URL (a chat file has no public URL).
 */
import { CLIENT_HEADER, CLIENT_MARKER, toApiError } from '@/lib/api-client';
import { ApiError, NETWORK_ERROR, TIMEOUT } from '@/lib/errors';
import { UPLOAD_TIMEOUT_MS } from './types';

/**
 * multipart POST of one file with upload progress (fetch has none): XHR, 300 s time-out.
 * Resolves with the stored path; rejects with an ApiError.
 */
export function uploadWithProgress(
  url: string,
  file: File,
  headers: Record<string, string>,
  onProgress: (fraction: number) => void,
  toError: (status: number, body: unknown) => ApiError = toApiError,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.setRequestHeader(CLIENT_HEADER, CLIENT_MARKER);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = undefined;
      try {
        body = JSON.parse(xhr.responseText) as unknown;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve((body as { path: string }).path);
      } else {
        reject(toError(xhr.status, body));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR));
    xhr.ontimeout = () => reject(new ApiError(0, TIMEOUT));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/** A chat file as an object URL (the caller revokes it). */
export async function fetchBlobUrl(url: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(url, { headers: { ...headers, [CLIENT_HEADER]: CLIENT_MARKER } });
  if (!response.ok) throw new ApiError(response.status, 'CHAT_MEDIA_NOT_FOUND');
  return URL.createObjectURL(await response.blob());
}
