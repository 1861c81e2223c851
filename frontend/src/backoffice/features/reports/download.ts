/** "Export CSV" of a report's table: GET …/reports/{report}/{table}.csv, streamed by the server. */
import { downloadFile } from '../../lib/download';

export function downloadCsv(report: string, table: string, range: { from: string; to: string }): Promise<void> {
  return downloadFile(`/api/backoffice/reports/${report}/${table}.csv`, range, `${report}-${table}.csv`);
}
