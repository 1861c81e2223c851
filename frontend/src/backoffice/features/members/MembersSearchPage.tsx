/**
 * Member search: by id, phone, name or bank account number, filtered by status; paged, sorted
 * and searched by the server; the view (search, filter, sort, page) is the URL query.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatDateTime } from '@/lib/dates';
import { formatMoney } from '@/lib/money';
import { DataTable, Pager } from '../../components/DataTable';
import { boApi } from '../../lib/api';
import { useBoErrorText } from '../../lib/errors';
import { MEMBERS, type MemberRow } from './members-api';
import {
  MEMBER_STATUSES,
  membersApiQuery,
  PAGE_SIZES,
  readMembersView,
  writeMembersView,
  type MemberSort,
  type MembersView,
  type StatusFilter,
} from './members-query';
import { StatusBadge } from './MemberSummary';

function toSorting(sort: MemberSort): SortingState {
  return [{ id: sort.replace('-', ''), desc: sort.startsWith('-') }];
}

function fromSorting(sorting: SortingState): MemberSort {
  const first = sorting[0];
  if (!first) return '-id';
  return `${first.desc ? '-' : ''}${first.id}` as MemberSort;
}

function SearchForm({ view, onApply }: { view: MembersView; onApply: (next: Pick<MembersView, 'q' | 'status'>) => void }) {
  const { t } = useTranslation();
  const [q, setQ] = useState(view.q);
  const [status, setStatus] = useState<StatusFilter>(view.status);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ q: q.trim(), status });
  };
  return (
    <form className="bo-filters" role="search" onSubmit={submit} aria-label={t('bo.members.search')}>
      <label className="bo-filter bo-members-q">
        <span>{t('bo.members.searchLabel')}</span>
        <input className="bo-input" type="search" maxLength={100} value={q} onChange={(event) => setQ(event.target.value)} />
      </label>
      <label className="bo-filter">
        <span>{t('bo.members.statusFilter')}</span>
        <select className="bo-input" value={status} onChange={(event) => setStatus(event.target.value as StatusFilter)}>
          <option value="">{t('bo.members.anyStatus')}</option>
          {MEMBER_STATUSES.map((value) => (
            <option key={value} value={value}>
              {t(value === 'ACTIVE' ? 'bo.members.statusActive' : 'bo.members.statusSuspended')}
            </option>
          ))}
        </select>
      </label>
      <div className="bo-filter-actions">
        <button type="submit" className="bo-btn bo-btn-primary">
          {t('bo.members.search')}
        </button>
      </div>
      <p className="bo-muted bo-small bo-members-hint">{t('bo.members.searchHint')}</p>
    </form>
  );
}

export default function MembersSearchPage() {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const [params, setParams] = useSearchParams();
  const view = readMembersView(params);
  const query = membersApiQuery(view);
  const members = useQuery({
    queryKey: [...MEMBERS, 'search', query],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/members', { query, signal }),
    placeholderData: keepPreviousData,
  });
  const go = (next: Partial<MembersView>) => setParams(writeMembersView({ ...view, ...next }));

  const columns = useMemo<ColumnDef<MemberRow, unknown>[]>(
    () => [
      { id: 'id', accessorFn: (m) => m.id, header: t('bo.members.id'), size: 80, cell: ({ row }) => <Link className="bo-link" to={String(row.original.id)}>#{row.original.id}</Link> },
      {
        id: 'name',
        accessorFn: (m) => m.name,
        header: t('bo.members.name'),
        cell: ({ row }) => (
          <Link className="bo-link" to={String(row.original.id)}>
            {row.original.name}
          </Link>
        ),
      },
      { id: 'phone', header: t('bo.members.phone'), size: 120, enableSorting: false, cell: ({ row }) => row.original.phone },
      { id: 'bank', header: t('bo.members.bank'), size: 160, enableSorting: false, cell: ({ row }) => <span className="bo-nowrap">{row.original.bankCode} {row.original.accountNoMasked}</span> },
      { id: 'balance', accessorFn: (m) => m.balance, header: t('bo.members.balance'), size: 130, cell: ({ row }) => <span className="bo-nowrap">{formatMoney(row.original.balance, row.original.currency)}</span> },
      { id: 'status', header: t('bo.members.status'), size: 110, enableSorting: false, cell: ({ row }) => <StatusBadge status={row.original.status} /> },
      { id: 'createdAt', accessorFn: (m) => m.createdAt, header: t('bo.members.createdAt'), size: 160, cell: ({ row }) => <span className="bo-nowrap">{formatDateTime(row.original.createdAt)}</span> },
    ],
    [t],
  );

  return (
    <section className="bo-page" aria-labelledby="bo-members-title">
      <header className="bo-page-head">
        <h1 id="bo-members-title">{t('bo.members.title')}</h1>
        {members.data && <span className="bo-muted">{t('bo.members.total', { count: members.data.total })}</span>}
      </header>
      <SearchForm key={params.toString()} view={view} onApply={(next) => go({ ...next, page: 1 })} />
      {members.isError ? (
        <p className="bo-error" role="alert">
          {errorText(members.error)}
        </p>
      ) : (
        <>
          <DataTable
            caption={t('bo.members.title')}
            columns={columns}
            data={members.data?.items ?? []}
            getRowId={(m) => String(m.id)}
            sorting={toSorting(view.sort)}
            onSortingChange={(updater) => {
              const next = typeof updater === 'function' ? updater(toSorting(view.sort)) : updater;
              go({ sort: fromSorting(next), page: 1 });
            }}
            empty={t('bo.members.empty')}
            fixedLayout
            busy={members.isFetching}
          />
          {members.data && (
            <Pager
              page={view.page}
              limit={view.limit}
              total={members.data.total}
              sizes={PAGE_SIZES}
              onPage={(page) => go({ page })}
              onLimit={(limit) => go({ limit, page: 1 })}
            />
          )}
        </>
      )}
    </section>
  );
}
