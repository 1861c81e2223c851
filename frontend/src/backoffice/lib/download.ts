/**
 * A file the server streams (a CSV export): fetched with the staff token in the header (a plain
 * link cannot carry it), then saved under the server's file name.
 */
import { getStaffToken } from './session';

export type DownloadQuery = Record<string, string | number | undefined>;

/** `path?query` fetched and saved; `fallback` names the file when the server does not. */
export async function downloadFile(path: string, query: DownloadQuery, fallback: string): Promise<void> {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(key, String(value));
  const response = await fetch(`${path}?${search}`, {
    headers: { Authorization: `Bearer ${getStaffToken() ?? ''}` },
  });
  if (!response.ok) throw new Error(`Download failed: ${response.status}`);
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallback;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
