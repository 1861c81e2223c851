/**
 * The member's seamless play: the rounds each provider sent (filtered by provider, days and open
 * or closed, paged by the server, exported as CSV), and below them the transactions, of every
 * round or of the one picked ("Transactions" on a round's row).
 */
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '@/api/schema.gen';
import { formatDateTime, parseDay, showDay } from '@/lib/dates';
import { formatMoney, type Currency } from '@/lib/money';
import { Coded } from '../../components/Coded';
import { boApi } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { memberKey, type MemberDetail } from './members-api';
import { PagedTable } from './PagedTable';
import { NO_FILTERS, seamlessApiQuery, type RoundState, type SeamlessFilters } from './seamless-query';

type S = components['schemas'];
type Round = S['SeamlessRoundOut'];
type Txn = S['SeamlessTxnOut'];

const when = (at: string) => <span className="bo-nowrap">{formatDateTime(at)}</span>;
const money = (amount: number, currency: string) => <span className="bo-nowrap">{formatMoney(amount, currency as Currency)}</span>;

function Filters({ value, onApply }: { value: SeamlessFilters; onApply: (next: SeamlessFilters) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState({ ...value, from: showDay(value.from), to: showDay(value.to) });
  const [bad, setBad] = useState<('from' | 'to')[]>([]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const days = { from: draft.from.trim() ? parseDay(draft.from) : '', to: draft.to.trim() ? parseDay(draft.to) : '' };
    const wrong = (['from', 'to'] as const).filter((key) => days[key] === null);
    setBad(wrong);
    if (wrong.length === 0) onApply({ ...draft, from: days.from ?? '', to: days.to ?? '' });
  };
  const clear = () => {
    setDraft(NO_FILTERS);
    setBad([]);
    onApply(NO_FILTERS);
  };
  const day = (key: 'from' | 'to', label: string) => {
    const id = `bo-seamless-${key}`;
    const wrong = bad.includes(key);
    return (
      <div className="bo-filter">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          className="bo-input"
          inputMode="numeric"
          placeholder={t('bo.members.seamless.dayFormat')}
          aria-invalid={wrong ? true : undefined}
          aria-describedby={wrong ? `${id}-error` : undefined}
          value={draft[key]}
          onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
        />
        {wrong && (
          <span id={`${id}-error`} className="field-error">
            {t('bo.members.seamless.badDay')}
          </span>
        )}
      </div>
    );
  };
  return (
    <form className="bo-filters" onSubmit={submit} aria-label={t('bo.members.seamless.filters')} noValidate>
      <div className="bo-filter">
        <label htmlFor="bo-seamless-provider">{t('bo.members.seamless.col.provider')}</label>
        <input id="bo-seamless-provider" className="bo-input" placeholder={t('bo.members.seamless.allProviders')} value={draft.provider} onChange={(event) => setDraft({ ...draft, provider: event.target.value })} />
      </div>
      {day('from', t('bo.members.seamless.from'))}
      {day('to', t('bo.members.seamless.to'))}
      <div className="bo-filter">
        <label htmlFor="bo-seamless-state">{t('bo.members.seamless.state')}</label>
        <select id="bo-seamless-state" className="bo-input" value={draft.state} onChange={(event) => setDraft({ ...draft, state: event.target.value as RoundState })}>
          <option value="">{t('bo.members.seamless.stateAll')}</option>
          <option value="open">{t('bo.members.seamless.stateOpen')}</option>
          <option value="closed">{t('bo.members.seamless.stateClosed')}</option>
        </select>
      </div>
      <div className="bo-filter-actions">
        <button type="submit" className="bo-btn bo-btn-primary">
          {t('bo.members.seamless.apply')}
        </button>
        <button type="button" className="bo-btn" onClick={clear}>
          {t('bo.members.seamless.clear')}
        </button>
      </div>
    </form>
  );
}

function Export({ label, path, query, fallback }: { label: string; path: string; query: Record<string, string | undefined>; fallback: string }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const run = () => {
    setFailed(false);
    downloadFile(path, query, fallback).catch(() => setFailed(true));
  };
  return (
    <>
      <button type="button" className="bo-btn bo-btn-sm" onClick={run}>
        {label}
      </button>
      {failed && (
        <p className="bo-error" role="alert">
          {t('bo.members.seamless.exportFailed')}
        </p>
      )}
    </>
  );
}

export function SeamlessPlay({ member }: { member: MemberDetail }) {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<SeamlessFilters>(NO_FILTERS);
  const [picked, setPicked] = useState<Round | null>(null);
  const query = seamlessApiQuery(filters);
  // A picked round's transactions, whatever their time; else the filters' (no state: a round's).
  const txnQuery = picked ? { provider: picked.provider, round: picked.roundId } : { provider: query.provider, from: query.from, to: query.to };
  const params = { member_id: member.id };
  const base = `/api/backoffice/members/${member.id}/seamless`;
  const kind = (code: string) => t(`bo.members.seamless.kind.${code}` as never, { defaultValue: code });

  const rounds = useMemo<ColumnDef<Round, unknown>[]>(
    () => [
      { id: 'opened', header: t('bo.members.seamless.col.opened'), cell: ({ row }) => when(row.original.openedAt) },
      { id: 'provider', header: t('bo.members.seamless.col.provider'), cell: ({ row }) => row.original.provider },
      { id: 'round', header: t('bo.members.seamless.col.round'), cell: ({ row }) => <code className="bo-code">{row.original.roundId}</code> },
      { id: 'game', header: t('bo.members.seamless.col.game'), cell: ({ row }) => row.original.gameCode },
      { id: 'bets', header: t('bo.members.seamless.col.bets'), cell: ({ row }) => money(row.original.bets, row.original.currency) },
      { id: 'wins', header: t('bo.members.seamless.col.wins'), cell: ({ row }) => money(row.original.wins, row.original.currency) },
      { id: 'net', header: t('bo.members.seamless.col.net'), cell: ({ row }) => money(row.original.net, row.original.currency) },
      {
        id: 'closed',
        header: t('bo.members.seamless.col.closed'),
        cell: ({ row }) => (row.original.closedAt ? when(row.original.closedAt) : <span className="bo-badge">{t('bo.members.seamless.open')}</span>),
      },
      {
        id: 'txns',
        header: t('bo.members.seamless.transactions'),
        cell: ({ row }) => (
          <button type="button" className="bo-btn bo-btn-sm" onClick={() => setPicked(row.original)} aria-label={t('bo.members.seamless.transactionsOf', { round: row.original.roundId })}>
            {t('bo.members.seamless.show')}
          </button>
        ),
      },
    ],
    [t],
  );
  const txns = useMemo<ColumnDef<Txn, unknown>[]>(
    () => [
      { id: 'at', header: t('bo.members.seamless.col.time'), cell: ({ row }) => when(row.original.createdAt) },
      { id: 'provider', header: t('bo.members.seamless.col.provider'), cell: ({ row }) => row.original.provider },
      { id: 'kind', header: t('bo.members.seamless.col.kind'), cell: ({ row }) => <Coded code={row.original.kind} label={kind(row.original.kind)} /> },
      { id: 'txn', header: t('bo.members.seamless.col.txnId'), cell: ({ row }) => <code className="bo-code">{row.original.txnId}</code> },
      { id: 'round', header: t('bo.members.seamless.col.round'), cell: ({ row }) => <code className="bo-code">{row.original.roundId}</code> },
      { id: 'amount', header: t('bo.members.seamless.col.amount'), cell: ({ row }) => money(row.original.amount, row.original.currency) },
      { id: 'reference', header: t('bo.members.seamless.col.reference'), cell: ({ row }) => (row.original.referenceId ? <code className="bo-code">{row.original.referenceId}</code> : '—') },
      { id: 'rolledBack', header: t('bo.members.seamless.col.rolledBack'), cell: ({ row }) => (row.original.rolledBack ? t('bo.members.yes') : '—') },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );
  const key = [...memberKey(member.id), 'seamless'];
  return (
    <div className="bo-stack">
      <Filters
        value={filters}
        onApply={(next) => {
          setFilters(next);
          setPicked(null);
        }}
      />
      <div className="bo-report-head">
        <h3 className="bo-panel-title">{t('bo.members.seamless.rounds')}</h3>
        <Export label={t('bo.members.seamless.exportRounds')} path={`${base}/rounds.csv`} query={query} fallback={`member-${member.id}-rounds.csv`} />
      </div>
      <PagedTable
        key={JSON.stringify(query)}
        queryKey={[...key, 'rounds', query]}
        caption={t('bo.members.seamless.rounds')}
        columns={rounds}
        rowId={(row) => String(row.id)}
        fetch={(page, limit, signal) => boApi.get('/api/backoffice/members/{member_id}/seamless/rounds', { params, query: { ...query, page, limit }, signal })}
      />
      <div className="bo-report-head">
        <h3 className="bo-panel-title">{picked ? t('bo.members.seamless.transactionsOf', { round: picked.roundId }) : t('bo.members.seamless.transactions')}</h3>
        {picked && (
          <button type="button" className="bo-btn bo-btn-sm" onClick={() => setPicked(null)}>
            {t('bo.members.seamless.everyTransaction')}
          </button>
        )}
        <Export label={t('bo.members.seamless.exportTransactions')} path={`${base}/transactions.csv`} query={txnQuery} fallback={`member-${member.id}-transactions.csv`} />
      </div>
      <PagedTable
        key={JSON.stringify(txnQuery)}
        queryKey={[...key, 'transactions', txnQuery]}
        caption={t('bo.members.seamless.transactions')}
        columns={txns}
        rowId={(row) => String(row.id)}
        fetch={(page, limit, signal) => boApi.get('/api/backoffice/members/{member_id}/seamless/transactions', { params, query: { ...txnQuery, page, limit }, signal })}
      />
    </div>
  );
}
