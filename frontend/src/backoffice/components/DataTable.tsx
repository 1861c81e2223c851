/**
 * The back office's tables: TanStack Table (headless) rendered as a dense, accessible <table>.
 * Sorting and paging are the server's (manual): the caller holds their state (in the URL for the
 * audit log) and fetches the page; a sortable header is a button and its cell says aria-sort.
 */
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type OnChangeFn,
  type SortingState,
} from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/Icon';
import { Pagination } from '@/components/ui/Pagination';

type Props<T> = {
  caption: string;
  columns: ColumnDef<T, unknown>[];
  data: readonly T[];
  getRowId: (row: T) => string;
  sorting?: SortingState;
  onSortingChange?: OnChangeFn<SortingState>;
  empty: ReactNode;
  busy?: boolean;
  rowClassName?: (row: T) => string | undefined;
  /** Columns keep their declared widths; those without one share the rest (wide content). */
  fixedLayout?: boolean;
};

export function DataTable<T>({ caption, columns, data, getRowId, sorting, onSortingChange, empty, busy, rowClassName, fixedLayout }: Props<T>) {
  const { t } = useTranslation();
  // TanStack Table returns functions that React Compiler must not memoise; nothing here is.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: data as T[],
    columns,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    // No width unless a column declares one (TanStack's default would give every column 150 px).
    defaultColumn: { size: 0 },
    manualSorting: true,
    manualPagination: true,
    enableSortingRemoval: false,
    enableMultiSort: false,
    state: { sorting: sorting ?? [] },
    onSortingChange,
  });
  return (
    <div className="bo-table-wrap" aria-busy={busy || undefined}>
      <table className={fixedLayout ? 'bo-table bo-table-fixed' : 'bo-table'}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const label = flexRender(header.column.columnDef.header, header.getContext());
                const sorted = header.column.getIsSorted();
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                    style={{ width: header.column.columnDef.size ? `${header.column.columnDef.size}px` : undefined }}
                  >
                    {header.column.getCanSort() && onSortingChange ? (
                      <button type="button" className="bo-sort" onClick={header.column.getToggleSortingHandler()}>
                        {label}
                        <Icon name={sorted === 'asc' ? 'arrowUp' : 'arrowDown'} size={14} className={sorted ? 'bo-sort-on' : 'bo-sort-off'} />
                      </button>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} className={rowClassName?.(row.original)}>
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
              ))}
            </tr>
          ))}
          {data.length === 0 && !busy && (
            <tr>
              <td colSpan={columns.length} className="bo-empty">
                {empty}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {busy && data.length === 0 && <p className="bo-empty">{t('bo.loading')}</p>}
    </div>
  );
}

/** Below a server-paged table: which rows these are, the page links and the page size. */
export function Pager({
  page,
  limit,
  total,
  sizes,
  onPage,
  onLimit,
}: {
  page: number;
  limit: number;
  total: number;
  sizes: readonly number[];
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
}) {
  const { t } = useTranslation();
  const first = total === 0 ? 0 : (page - 1) * limit + 1;
  const last = Math.min(total, page * limit);
  return (
    <div className="bo-pager">
      <span className="bo-muted">{t('bo.table.range', { first, last, total })}</span>
      <Pagination page={page} count={Math.max(1, Math.ceil(total / limit))} onChange={onPage} />
      <label className="bo-pager-size">
        <span>{t('bo.table.rows')}</span>
        <select className="bo-input bo-input-sm" value={limit} onChange={(event) => onLimit(Number(event.target.value))}>
          {sizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
