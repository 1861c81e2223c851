/**
 * The audit log: every state-changing back-office call and every sensitive read, newest first.
 * Paged, sorted and filtered by the server; the view (filters, sort, page) is the URL query.
 * Who acted is named (the login under it), each action by its name (the code in a tooltip), the
 * action filter is a list of the actions the server records, sign-ins can be hidden, days are
 * typed DD/MM/YYYY, and amounts read as money in their currency (Changes.tsx).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { components } from '@/api/schema.gen';
import { formatDateTime, parseDay, showDay } from '@/lib/dates';
import { DataTable, Pager } from '../../components/DataTable';
import { Coded } from '../../components/Coded';
import { boApi } from '../../lib/api';
import { actionLabel, objectLabel } from '../../lib/labels';
import { useBoErrorText } from '../../lib/errors';
import {
  auditApiQuery,
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

type Draft = Omit<AuditFilters, 'from' | 'to'> & { from: string; to: string };

type Lists = { actions: readonly string[]; objectTypes: readonly string[] };

/** A filter's choices: the server's list, and a value a link names that the list lacks (an
 * older code), so that it stays choosable. */
const withValue = (list: readonly string[], value: string) => (value && !list.includes(value) ? [value, ...list] : list);

function FilterForm({ view, lists, onApply }: { view: AuditView; lists: Lists; onApply: (filters: AuditFilters) => void }) {
  const { t } = useTranslation();
  // The days as typed (DD/MM/YYYY); the view keeps them as YYYY-MM-DD.
  const [draft, setDraft] = useState<Draft>({ ...view, from: showDay(view.from), to: showDay(view.to) });
  const [badDays, setBadDays] = useState<('from' | 'to')[]>([]);
  const text = (key: 'staffId' | 'objectId', label: string) => (
    <label className="bo-filter">
      <span>{label}</span>
      <input
        className="bo-input"
        inputMode={key === 'staffId' ? 'numeric' : undefined}
        value={draft[key]}
        onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
      />
    </label>
  );
  const day = (key: 'from' | 'to', label: string) => {
    const bad = badDays.includes(key);
    const id = `bo-audit-${key}`;
    return (
      <div className="bo-filter">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          className="bo-input"
          inputMode="numeric"
          placeholder={t('bo.audit.dayFormat')}
          aria-invalid={bad ? true : undefined}
          aria-describedby={bad ? `${id}-error` : undefined}
          value={draft[key]}
          onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
        />
        {bad && (
          <span id={`${id}-error`} className="field-error">
            {t('bo.audit.badDay')}
          </span>
        )}
      </div>
    );
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const days = { from: draft.from.trim() ? parseDay(draft.from) : '', to: draft.to.trim() ? parseDay(draft.to) : '' };
    const bad = (['from', 'to'] as const).filter((key) => days[key] === null);
    setBadDays(bad);
    if (bad.length > 0) return;
    onApply({ ...draft, from: days.from ?? '', to: days.to ?? '' });
  };
  const clear = () => {
    const empty: AuditFilters = { staffId: '', action: '', objectType: '', objectId: '', from: '', to: '', hideSignIns: false };
    setDraft(empty);
    setBadDays([]);
    onApply(empty);
  };
  // A label beside (not around) the list: wrapped, the options' texts would join its name.
  const choose = (key: 'action' | 'objectType', label: string, all: string, list: readonly string[], name: (code: string) => string) => (
    <div className="bo-filter">
      <label htmlFor={`bo-audit-${key}`}>{label}</label>
      <select id={`bo-audit-${key}`} className="bo-input" value={draft[key]} onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}>
        <option value="">{all}</option>
        {withValue(list, draft[key]).map((code) => (
          <option key={code} value={code}>
            {name(code)}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <form className="bo-filters" onSubmit={submit} aria-label={t('bo.audit.filters')} noValidate>
      {text('staffId', t('bo.audit.staffId'))}
      {choose('action', t('bo.audit.action'), t('bo.audit.allActions'), lists.actions, (code) => actionLabel(t, code))}
      {choose('objectType', t('bo.audit.objectType'), t('bo.audit.allObjects'), lists.objectTypes, (code) => objectLabel(t, code))}
      {text('objectId', t('bo.audit.objectId'))}
      {day('from', t('bo.audit.from'))}
      {day('to', t('bo.audit.to'))}
      <label className="bo-filter bo-filter-check">
        <input type="checkbox" checked={draft.hideSignIns} onChange={(event) => setDraft({ ...draft, hideSignIns: event.target.checked })} />
        <span>{t('bo.audit.hideSignIns')}</span>
      </label>
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
  // The actions the log records, for the filter's list (they change only with a release).
  const actions = useQuery({
    queryKey: ['bo', 'audit', 'actions'],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/audit/actions', { signal }),
    staleTime: Infinity,
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
          // The staff member by name; the login (what they type) and role underneath.
          <span className="bo-stack">
            <span>{row.original.staffName ?? row.original.actor}</span>
            <span className="bo-muted bo-small">
              {row.original.staffName !== null && row.original.staffName !== row.original.actor && `${row.original.actor} · `}
              {row.original.staffRole ? t(`bo.role.${row.original.staffRole}` as never) : t('bo.audit.operator')}
              {row.original.staffId !== null && ` · #${row.original.staffId}`}
            </span>
          </span>
        ),
      },
      {
        id: 'action',
        accessorFn: (entry) => entry.action,
        header: t('bo.audit.action'),
        size: 170,
        // The name; the code stays in the tooltip for those who search the logs by it.
        cell: ({ row }) => <Coded code={row.original.action} label={actionLabel(t, row.original.action)} />,
      },
      {
        id: 'object',
        header: t('bo.audit.object'),
        size: 110,
        enableSorting: false,
        cell: ({ row }) =>
          row.original.objectType ? (
            <span className="bo-nowrap">
              <Coded code={row.original.objectType} label={objectLabel(t, row.original.objectType)} />
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
      <FilterForm key={params.toString()} view={view} lists={{ actions: actions.data?.items ?? [], objectTypes: actions.data?.objectTypes ?? [] }} onApply={(filters) => go({ ...filters, page: 1 })} />
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
