/**
 * The withdrawal queue: the server's pages of withdrawals (PENDING, oldest first, by default),
 * with the member, the masked account, who claimed each and a bank-change flag; new requests and
 * other cashiers' claims and decisions appear without a reload (use-queue-socket). The view
 * (status, sort, page, the open withdrawal) is the URL query; the open one shows beside the table.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { useCallback, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { components } from '@/api/schema.gen';
import { formatDateTime } from '@/lib/dates';
import { formatMoney, type Currency } from '@/lib/money';
import { DataTable, Pager } from '../../components/DataTable';
import { boApi } from '../../lib/api';
import { useBoErrorText } from '../../lib/errors';
import { arrivalOf, type NewWithdrawal } from './queue-updates';
import { StatusBadge } from './StatusBadge';
import { useQueueSocket } from './use-queue-socket';
import { WithdrawalDetail } from './WithdrawalDetail';
import {
  PAGE_SIZES,
  queueApiQuery,
  readQueueView,
  STATUSES,
  WITHDRAWALS_KEY,
  writeQueueView,
  type QueueSort,
  type QueueView,
  type WithdrawalStatus,
} from './withdrawals-query';

type Row = components['schemas']['WithdrawalRowOut'];

function toSorting(sort: QueueSort): SortingState {
  return [{ id: sort.replace('-', ''), desc: sort.startsWith('-') }];
}

function fromSorting(sorting: SortingState): QueueSort {
  const first = sorting[0];
  if (!first) return 'createdAt';
  return `${first.desc ? '-' : ''}${first.id}` as QueueSort;
}

export default function WithdrawalsPage() {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const [params, setParams] = useSearchParams();
  const view = readQueueView(params);
  const query = queueApiQuery(view);
  const [announcement, setAnnouncement] = useState('');
  const statusId = useId();
  const rows = useQuery({
    queryKey: [...WITHDRAWALS_KEY, 'list', query],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/withdrawals', { query, signal }),
    placeholderData: keepPreviousData,
  });
  const onNew = useCallback(
    (items: NewWithdrawal[]) => {
      // One announcement per refresh: a burst of withdrawals is summed up, not read out one by one.
      const arrival = arrivalOf(items);
      setAnnouncement(t(arrival.key, arrival.values));
    },
    [t],
  );
  const live = useQueueSocket(onNew);
  const go = useCallback((next: Partial<QueueView>) => setParams(writeQueueView({ ...view, ...next })), [setParams, view]);

  const columns = useMemo<ColumnDef<Row, unknown>[]>(
    () => [
      {
        id: 'createdAt',
        header: t('bo.withdrawals.requestedAt'),
        size: 150,
        // The open button sits in the first column: it stays in view when the panel narrows the table.
        cell: ({ row }) => (
          <span className="bo-stack">
            <span className="bo-nowrap">{formatDateTime(row.original.createdAt)}</span>
            <button
              type="button"
              className="bo-wd-open"
              aria-pressed={view.open === row.original.id}
              aria-label={t('bo.withdrawals.openOf', { id: row.original.id })}
              onClick={() => go({ open: row.original.id })}
            >
              #{row.original.id} · {t('bo.withdrawals.open')}
            </button>
          </span>
        ),
      },
      {
        id: 'member',
        header: t('bo.withdrawals.member'),
        enableSorting: false,
        cell: ({ row }) => (
          <span className="bo-stack">
            <span>{row.original.memberName}</span>
            <span className="bo-muted bo-small">{row.original.memberPhone}</span>
          </span>
        ),
      },
      {
        id: 'amount',
        header: t('bo.withdrawals.amount'),
        size: 120,
        cell: ({ row }) => (
          <span className="bo-strong bo-nowrap">
            {formatMoney(row.original.amount, row.original.currency as Currency)} {row.original.currency}
          </span>
        ),
      },
      {
        id: 'bank',
        header: t('bo.withdrawals.bank'),
        enableSorting: false,
        cell: ({ row }) => (
          <span className="bo-stack">
            <span className="bo-nowrap">
              {row.original.bankCode} {row.original.accountNoMasked}
            </span>
            <span className="bo-muted bo-small">{row.original.bankAccountName}</span>
            {row.original.bankChangedRecently && <span className="bo-badge bo-badge-warn">{t('bo.withdrawals.bankChanged')}</span>}
          </span>
        ),
      },
      { id: 'status', header: t('bo.withdrawals.statusLabel'), size: 110, enableSorting: false, cell: ({ row }) => <StatusBadge status={row.original.status} /> },
      {
        id: 'claimedBy',
        header: t('bo.withdrawals.claimedBy'),
        size: 130,
        enableSorting: false,
        cell: ({ row }) => row.original.claimedBy ?? <span className="bo-muted">—</span>,
      },
    ],
    [t, go, view.open],
  );

  return (
    <section className="bo-page" aria-labelledby="bo-withdrawals-title">
      <header className="bo-page-head">
        <h1 id="bo-withdrawals-title">{t('bo.withdrawals.title')}</h1>
        <span className="bo-wd-head-side">
          {rows.data && <span className="bo-muted">{t('bo.withdrawals.total', { count: rows.data.total })}</span>}
          <span className={live ? 'bo-badge bo-badge-ok' : 'bo-badge bo-badge-off'}>{t(live ? 'bo.withdrawals.live' : 'bo.withdrawals.offline')}</span>
        </span>
      </header>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      <form className="bo-filters" aria-label={t('bo.withdrawals.filters')} onSubmit={(event) => event.preventDefault()}>
        <div className="bo-filter">
          <label htmlFor={statusId}>{t('bo.withdrawals.statusLabel')}</label>
          <select
            id={statusId}
            className="bo-input"
            value={view.status || 'all'}
            onChange={(event) => go({ status: event.target.value === 'all' ? '' : (event.target.value as WithdrawalStatus), page: 1 })}
          >
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`bo.withdrawals.status.${status}`)}
              </option>
            ))}
            <option value="all">{t('bo.withdrawals.allStatuses')}</option>
          </select>
        </div>
      </form>
      <div className={view.open === null ? 'bo-wd-layout' : 'bo-wd-layout bo-wd-layout-open'}>
        <div className="bo-wd-table">
          {rows.isError ? (
            <p className="bo-error" role="alert">
              {errorText(rows.error)}
            </p>
          ) : (
            <>
              <DataTable
                caption={t('bo.withdrawals.title')}
                columns={columns}
                data={rows.data?.items ?? []}
                getRowId={(row) => String(row.id)}
                sorting={toSorting(view.sort)}
                onSortingChange={(updater) => {
                  const next = typeof updater === 'function' ? updater(toSorting(view.sort)) : updater;
                  go({ sort: fromSorting(next), page: 1 });
                }}
                rowClassName={(row) => (row.id === view.open ? 'bo-row-selected' : undefined)}
                empty={t('bo.withdrawals.empty')}
                busy={rows.isFetching}
              />
              {rows.data && (
                <Pager
                  page={view.page}
                  limit={view.limit}
                  total={rows.data.total}
                  sizes={PAGE_SIZES}
                  onPage={(page) => go({ page })}
                  onLimit={(limit) => go({ limit, page: 1 })}
                />
              )}
            </>
          )}
        </div>
        {view.open !== null && <WithdrawalDetail key={view.open} id={view.open} onClose={() => go({ open: null })} />}
      </div>
    </section>
  );
}
