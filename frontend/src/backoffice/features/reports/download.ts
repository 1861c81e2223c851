/**
 * "Export CSV": the server streams the file (GET …/reports/{report}/{table}.csv, the staff token
 * in the header, so a plain link cannot carry it); the browser saves what arrives under the
 * server's file name.
 */
import { getStaffToken } from '../../lib/session';

export async function downloadCsv(report: string, table: string, range: { from: string; to: string }): Promise<void> {
  const query = new URLSearchParams(range);
  const response = await fetch(`/api/backoffice/reports/${report}/${table}.csv?${query}`, {
    headers: { Authorization: `Bearer ${getStaffToken() ?? ''}` },
  });
  if (!response.ok) throw new Error(`CSV export failed: ${response.status}`);
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `${report}-${table}.csv`;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
