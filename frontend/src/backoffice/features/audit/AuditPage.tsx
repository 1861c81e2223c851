/**
 * The audit log: every state-changing back-office call and every sensitive read, newest first.
 * Paged, sorted and filtered by the server; the view (filters, sort, page) is the URL query.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { components } from '@/api/schema.gen';
import { formatDateTime } from '@/lib/dates';
import { DataTable, Pager } from '../../components/DataTable';
import { boApi } from '../../lib/api';
import { useBoErrorText } from '../../lib/errors';
import {
  auditApiQuery,
  FILTER_KEYS,
  PAGE_SIZES,
  readAuditView,
  writeAuditView,
  type AuditFilters,
  type AuditSort,
  type AuditView,
} from './audit-query';
import { Changes } from './Changes';

type Entry = components['schemas']['AuditEntryOut'];

function toSorting(sort: AuditSort): SortingState {
  return [{ id: sort.replace('-', ''), desc: sort.startsWith('-') }];
}

function fromSorting(sorting: SortingState): AuditSort {
  const first = sorting[0];
  if (!first) return '-at';
  return `${first.desc ? '-' : ''}${first.id}` as AuditSort;
}

function FilterForm({ view, onApply }: { view: AuditView; onApply: (filters: AuditFilters) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<AuditFilters>(view);
  const field = (key: (typeof FILTER_KEYS)[number], label: string, type = 'text') => (
    <label className="bo-filter">
      <span>{label}</span>
      <input
        className="bo-input"
        type={type}
        inputMode={key === 'staffId' ? 'numeric' : undefined}
        value={draft[key]}
        onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
      />
    </label>
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  const clear = () => {
    const empty = Object.fromEntries(FILTER_KEYS.map((key) => [key, ''])) as AuditFilters;
    setDraft(empty);
    onApply(empty);
  };
  return (
    <form className="bo-filters" onSubmit={submit} aria-label={t('bo.audit.filters')}>
      {field('staffId', t('bo.audit.staffId'))}
      {field('action', t('bo.audit.action'))}
      {field('objectType', t('bo.audit.objectType'))}
      {field('objectId', t('bo.audit.objectId'))}
      {field('from', t('bo.audit.from'), 'date')}
      {field('to', t('bo.audit.to'), 'date')}
      <div className="bo-filter-actions">
        <button type="submit" className="bo-btn bo-btn-primary">
          {t('bo.audit.apply')}
        </button>
        <button type="button" className="bo-btn" onClick={clear}>
          {t('bo.audit.clear')}
        </button>
      </div>
    </form>
  );
}

export default function AuditPage() {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const [params, setParams] = useSearchParams();
  const view = readAuditView(params);
  const query = auditApiQuery(view);
  const entries = useQuery({
    queryKey: ['bo', 'audit', query],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/audit', { query, signal }),
    placeholderData: keepPreviousData,
  });
  const go = (next: Partial<AuditView>) => setParams(writeAuditView({ ...view, ...next }));

  const columns = useMemo<ColumnDef<Entry, unknown>[]>(
    () => [
      { id: 'at', accessorFn: (entry) => entry.at, header: t('bo.audit.at'), size: 160, cell: ({ row }) => <span className="bo-nowrap">{formatDateTime(row.original.at)}</span> },
      {
        id: 'staff',
        accessorFn: (entry) => entry.actor,
        header: t('bo.audit.staff'),
        size: 150,
        cell: ({ row }) => (
          <span className="bo-stack">
            <span>{row.original.actor}</span>
            <span className="bo-muted bo-small">
              {row.original.staffRole ? t(`bo.role.${row.original.staffRole}` as never) : t('bo.audit.operator')}
              {row.original.staffId !== null && ` · #${row.original.staffId}`}
            </span>
          </span>
        ),
      },
      { id: 'action', accessorFn: (entry) => entry.action, header: t('bo.audit.action'), size: 170, cell: ({ row }) => <code className="bo-code">{row.original.action}</code> },
      {
        id: 'object',
        header: t('bo.audit.object'),
        size: 110,
        enableSorting: false,
        cell: ({ row }) =>
          row.original.objectType ? (
            <span className="bo-nowrap">
              {row.original.objectType}
              {row.original.objectId && <span className="bo-muted"> #{row.original.objectId}</span>}
            </span>
          ) : (
            '—'
          ),
      },
      {
        id: 'changes',
        header: t('bo.audit.changes'),
        enableSorting: false,
        cell: ({ row }) => (
          <>
            <Changes before={row.original.before} after={row.original.after} />
            {row.original.detail && <p className="bo-muted bo-small">{row.original.detail}</p>}
          </>
        ),
      },
      { id: 'ip', header: t('bo.audit.ip'), size: 110, enableSorting: false, cell: ({ row }) => row.original.ip ?? '—' },
    ],
    [t],
  );

  return (
    <section className="bo-page" aria-labelledby="bo-audit-title">
      <header className="bo-page-head">
        <h1 id="bo-audit-title">{t('bo.audit.title')}</h1>
        {entries.data && <span className="bo-muted">{t('bo.audit.total', { count: entries.data.total })}</span>}
      </header>
      <FilterForm key={params.toString()} view={view} onApply={(filters) => go({ ...filters, page: 1 })} />
      {entries.isError ? (
        <p className="bo-error" role="alert">
          {errorText(entries.error)}
        </p>
      ) : (
        <>
          <DataTable
            caption={t('bo.audit.title')}
            columns={columns}
            data={entries.data?.items ?? []}
            getRowId={(entry) => String(entry.id)}
            sorting={toSorting(view.sort)}
            onSortingChange={(updater) => {
              const next = typeof updater === 'function' ? updater(toSorting(view.sort)) : updater;
              go({ sort: fromSorting(next), page: 1 });
            }}
            empty={t('bo.audit.empty')}
            fixedLayout
            busy={entries.isFetching}
          />
          {entries.data && (
            <Pager
              page={view.page}
              limit={view.limit}
              total={entries.data.total}
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
