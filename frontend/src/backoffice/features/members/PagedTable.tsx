/** One paged history table of the member page: the server pages it; page and size are local. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, Pager } from '../../components/DataTable';
import { useBoErrorText } from '../../lib/errors';

export const HISTORY_SIZES = [10, 20, 50, 100] as const;

export type Fetch<T> = (page: number, limit: number, signal: AbortSignal) => Promise<{ items: T[]; total: number }>;

export function PagedTable<T>({
  queryKey,
  fetch,
  columns,
  caption,
  rowId,
}: {
  queryKey: readonly unknown[];
  fetch: Fetch<T>;
  columns: ColumnDef<T, unknown>[];
  caption: string;
  rowId: (row: T, index: number) => string;
}) {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(20);
  const rows = useQuery({
    queryKey: [...queryKey, page, limit],
    queryFn: ({ signal }) => fetch(page, limit, signal),
    placeholderData: keepPreviousData,
  });
  if (rows.isError)
    return (
      <p className="bo-error" role="alert">
        {errorText(rows.error)}
      </p>
    );
  const data = rows.data?.items ?? [];
  return (
    <>
      <DataTable
        caption={caption}
        columns={columns}
        data={data}
        getRowId={(row) => rowId(row, data.indexOf(row))}
        empty={t('bo.members.noRows')}
        busy={rows.isFetching}
      />
      {rows.data && rows.data.total > 0 && (
        <Pager page={page} limit={limit} total={rows.data.total} sizes={HISTORY_SIZES} onPage={setPage} onLimit={(next) => { setLimit(next); setPage(1); }} />
      )}
    </>
  );
}
