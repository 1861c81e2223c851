/**
 * The withdrawal queue: the server's pages of withdrawals (PENDING, oldest first, by default),
 * with the member, the masked account, who claimed each and its flags (a recent bank change,
 * linked accounts, an open bonus; none: clean); new requests and other cashiers' claims and
 * decisions appear without a reload (use-queue-socket) and catch the eye (use-attention: the
 * waiting count in the tab title, a chime, the new rows highlighted, desktop notifications).
 * The view (status, filters, sort, page, the open withdrawal) is the URL query; the open one
 * shows beside the table, which then leaves out the bank column so that every other column fits
 * at 1366 px. "Claim next" takes the oldest unclaimed one; a clean row is approved from the row;
 * the keyboard does it all (queue-keys, "?" lists the keys).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { components } from '@/api/schema.gen';
import { formatDateTime } from '@/lib/dates';
import { formatMoney, type Currency } from '@/lib/money';
import { DataTable, Pager } from '../../components/DataTable';
import { boApi } from '../../lib/api';
import { useMe } from '../../lib/auth';
import { useBoErrorText } from '../../lib/errors';
import { may } from '../../lib/permissions';
import { DecisionDialog } from './DecisionDialog';
import { QueueFilterForm } from './QueueFilterForm';
import { actionOf, moveCursor, type QueueAction } from './queue-keys';
import { arrivalOf, type NewWithdrawal } from './queue-updates';
import { ShortcutsDialog } from './ShortcutsDialog';
import { StatusBadge } from './StatusBadge';
import { useAttention } from './use-attention';
import { useQueueSocket } from './use-queue-socket';
import { WithdrawalDetail } from './WithdrawalDetail';
import { PAGE_SIZES, queueApiQuery, readQueueView, WITHDRAWALS_KEY, writeQueueView, type QueueSort, type QueueView } from './withdrawals-query';

type Row = components['schemas']['WithdrawalRowOut'];

function toSorting(sort: QueueSort): SortingState {
  return [{ id: sort.replace('-', ''), desc: sort.startsWith('-') }];
}

function fromSorting(sorting: SortingState): QueueSort {
  const first = sorting[0];
  if (!first) return 'createdAt';
  return `${first.desc ? '-' : ''}${first.id}` as QueueSort;
}

/** The row's open button: the keyboard cursor focuses it (its row is the cursor's). */
const openButton = (id: number) => document.querySelector<HTMLButtonElement>(`[data-wd-open="${id}"]`);

function Flags({ row }: { row: Row }) {
  const { t } = useTranslation();
  if (row.clean) return row.status === 'PENDING' ? <span className="bo-badge bo-badge-ok">{t('bo.withdrawals.flag.clean')}</span> : null;
  return (
    <>
      {row.bankChangedRecently && <span className="bo-badge bo-badge-warn">{t('bo.withdrawals.bankChanged')}</span>}
      {row.linkedAccounts && <span className="bo-badge bo-badge-warn">{t('bo.withdrawals.flag.linked')}</span>}
      {row.openBonus && <span className="bo-badge bo-badge-warn">{t('bo.withdrawals.flag.bonus')}</span>}
    </>
  );
}

export default function WithdrawalsPage() {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const { me } = useMe();
  const queryClient = useQueryClient();
  const decider = may(me, 'withdrawals.decide');
  const [params, setParams] = useSearchParams();
  const view = readQueueView(params);
  const query = queueApiQuery(view);
  const [announcement, setAnnouncement] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [approving, setApproving] = useState<{ row: Row; claimFirst: boolean } | null>(null);
  const [help, setHelp] = useState(false);
  const [cursor, setCursor] = useState(-1);
  const rows = useQuery({
    queryKey: [...WITHDRAWALS_KEY, 'list', query],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/withdrawals', { query, signal }),
    placeholderData: keepPreviousData,
  });
  // The tab title counts every withdrawal waiting, whatever the filters show.
  const waiting = useQuery({
    queryKey: [...WITHDRAWALS_KEY, 'waiting'],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/withdrawals', { query: { status: 'PENDING', limit: 1 }, signal }),
  });
  const attention = useAttention(waiting.data?.total, t('bo.withdrawals.title'));
  const { arrived, toggleMuted } = attention;
  const onNew = useCallback(
    (items: NewWithdrawal[]) => {
      // One announcement per refresh: a burst of withdrawals is summed up, not read out one by one.
      const arrival = arrivalOf(items);
      const text = t(arrival.key, arrival.values);
      setAnnouncement(text);
      arrived(
        items.map((item) => item.id),
        text,
      );
    },
    [t, arrived],
  );
  const live = useQueueSocket(onNew);
  const viewRef = useRef(view);
  useEffect(() => {
    viewRef.current = view;
  });
  const go = useCallback((next: Partial<QueueView>) => setParams(writeQueueView({ ...viewRef.current, ...next })), [setParams]);
  const items = useMemo(() => rows.data?.items ?? [], [rows.data]);
  const compact = view.open !== null;
  const mine = useCallback((row: Row) => row.claimedByStaffId !== null && row.claimedByStaffId === me?.id, [me]);
  // A clean pending row nobody else holds is approved from the row.
  const rowApprovable = useCallback(
    (row: Row) => decider && row.status === 'PENDING' && row.clean && (row.claimedByStaffId === null || mine(row)),
    [decider, mine],
  );

  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: WITHDRAWALS_KEY }), [queryClient]);
  const claimNext = useMutation({
    mutationFn: () => boApi.post('/api/backoffice/withdrawals/claim-next'),
    onSuccess: (row) => {
      setProblem(null);
      setAnnouncement(t('bo.withdrawals.claimedNext', { id: row.id }));
      go({ open: row.id });
    },
    onError: (error) => setProblem(errorText(error)),
    onSettled: refresh,
  });
  const claim = useMutation({
    mutationFn: (id: number) => boApi.post('/api/backoffice/withdrawals/{withdrawal_id}/claim', undefined, { params: { withdrawal_id: id } }),
    onSuccess: (row) => {
      setProblem(null);
      setAnnouncement(t('bo.withdrawals.claimedOne', { id: row.id }));
    },
    onError: (error) => setProblem(errorText(error)),
    onSettled: refresh,
  });

  const focusRow = useCallback(
    (index: number) => {
      setCursor(index);
      const row = items[index];
      if (row) openButton(row.id)?.focus();
    },
    [items],
  );

  const act = useCallback(
    (action: QueueAction) => {
      const target = items[cursor] ?? items.find((row) => row.id === view.open);
      switch (action) {
        case 'next':
        case 'previous':
          focusRow(moveCursor(cursor, items.length, action));
          return;
        case 'open':
          if (target) go({ open: target.id });
          return;
        case 'close':
          if (view.open !== null) go({ open: null });
          return;
        case 'claim':
          if (target && decider && target.status === 'PENDING') claim.mutate(target.id);
          return;
        case 'approve':
          if (!target || !decider || target.status !== 'PENDING') return;
          if (rowApprovable(target)) setApproving({ row: target, claimFirst: !mine(target) });
          // A flagged one is decided with its detail open and claimed.
          else if (mine(target) && view.open === target.id) setApproving({ row: target, claimFirst: false });
          else setProblem(t(target.clean ? 'bo.withdrawals.claimedByOther' : 'bo.withdrawals.openFirst', { name: target.claimedBy ?? '', id: target.id }));
          return;
        case 'claimNext':
          if (decider && !claimNext.isPending) claimNext.mutate();
          return;
        case 'mute':
          toggleMuted();
          return;
        case 'help':
          setHelp(true);
          return;
      }
    },
    [items, cursor, view.open, go, focusRow, decider, claim, claimNext, rowApprovable, mine, toggleMuted, t],
  );

  // One listener for the page's life, reading what it acts on as of the last render (updated
  // before the browser paints): a key pressed right after a row opened acts on the open row, not
  // on the screen before it (a listener re-added after each render left a gap).
  const keyState = useRef({ act, blocked: false });
  useLayoutEffect(() => {
    keyState.current = { act, blocked: Boolean(approving || help) };
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (keyState.current.blocked) return;
      const action = actionOf(event);
      if (!action) return;
      event.preventDefault();
      keyState.current.act(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const columns = useMemo<ColumnDef<Row, unknown>[]>(() => {
    const all: (ColumnDef<Row, unknown> | false)[] = [
      {
        id: 'createdAt',
        header: t('bo.withdrawals.requestedAt'),
        size: compact ? 128 : 150,
        // The open button sits in the first column: it stays in view when the panel narrows the table.
        cell: ({ row }) => (
          <span className="bo-stack">
            <span className="bo-nowrap">{formatDateTime(row.original.createdAt)}</span>
            <button
              type="button"
              className="bo-wd-open"
              data-wd-open={row.original.id}
              aria-pressed={view.open === row.original.id}
              aria-label={t('bo.withdrawals.openOf', { id: row.original.id })}
              onFocus={() => setCursor(row.index)}
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
        size: compact ? 110 : 120,
        cell: ({ row }) => (
          <span className="bo-strong bo-nowrap">
            {formatMoney(row.original.amount, row.original.currency as Currency)} {row.original.currency}
          </span>
        ),
      },
      // With the detail open, the panel shows where it is paid: the column makes room.
      !compact && {
        id: 'bank',
        header: t('bo.withdrawals.bank'),
        enableSorting: false,
        cell: ({ row }) => (
          <span className="bo-stack">
            <span className="bo-nowrap">
              {row.original.bankCode} {row.original.accountNoMasked}
            </span>
            <span className="bo-muted bo-small">{row.original.bankAccountName}</span>
          </span>
        ),
      },
      {
        id: 'status',
        header: t('bo.withdrawals.statusLabel'),
        size: 130,
        enableSorting: false,
        cell: ({ row }) => (
          <span className="bo-stack bo-wd-flags">
            <StatusBadge status={row.original.status} />
            <Flags row={row.original} />
          </span>
        ),
      },
      {
        id: 'claimedBy',
        header: t('bo.withdrawals.claimedBy'),
        size: compact ? 120 : 140,
        enableSorting: false,
        cell: ({ row }) => (
          <span className="bo-stack">
            <span className="bo-wd-claimer">{row.original.claimedBy ?? <span className="bo-muted">—</span>}</span>
            {rowApprovable(row.original) && (
              <button
                type="button"
                className="bo-btn bo-btn-sm bo-btn-primary"
                aria-label={t('bo.withdrawals.approveRowOf', { id: row.original.id })}
                onClick={() => setApproving({ row: row.original, claimFirst: !mine(row.original) })}
              >
                {t('bo.withdrawals.approveRow')}
              </button>
            )}
          </span>
        ),
      },
    ];
    return all.filter((column): column is ColumnDef<Row, unknown> => column !== false);
  }, [t, go, view.open, compact, rowApprovable, mine]);

  const rowClass = (row: Row) =>
    [row.id === view.open && 'bo-row-selected', items[cursor]?.id === row.id && 'bo-row-cursor', attention.fresh.has(row.id) && 'bo-row-new'].filter(Boolean).join(' ') ||
    undefined;

  return (
    <section className="bo-page" aria-labelledby="bo-withdrawals-title">
      <header className="bo-page-head">
        <h1 id="bo-withdrawals-title">{t('bo.withdrawals.title')}</h1>
        <span className="bo-wd-head-side">
          {rows.data && <span className="bo-muted">{t('bo.withdrawals.total', { count: rows.data.total })}</span>}
          <span className={live ? 'bo-badge bo-badge-ok' : 'bo-badge bo-badge-off'}>{t(live ? 'bo.withdrawals.live' : 'bo.withdrawals.offline')}</span>
          <button type="button" className="bo-btn bo-btn-sm" aria-pressed={!attention.muted} onClick={attention.toggleMuted}>
            {t('bo.withdrawals.sound')}
          </button>
          {attention.notifications.permission !== 'unsupported' && (
            <button
              type="button"
              className="bo-btn bo-btn-sm"
              aria-pressed={attention.notifications.wanted && attention.notifications.permission === 'granted'}
              disabled={attention.notifications.permission === 'denied'}
              title={attention.notifications.permission === 'denied' ? t('bo.withdrawals.notifyBlocked') : undefined}
              onClick={attention.toggleNotifications}
            >
              {t('bo.withdrawals.notify')}
            </button>
          )}
          <button type="button" className="bo-btn bo-btn-sm" aria-label={t('bo.withdrawals.keys.title')} onClick={() => setHelp(true)}>
            ?
          </button>
          {decider && (
            <button type="button" className="bo-btn bo-btn-primary" disabled={claimNext.isPending} onClick={() => claimNext.mutate()}>
              {t('bo.withdrawals.claimNext')}
            </button>
          )}
        </span>
      </header>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {problem && (
        <p className="bo-error" role="alert">
          {problem}
        </p>
      )}
      <QueueFilterForm view={view} onChange={go} />
      <div className={compact ? 'bo-wd-layout bo-wd-layout-open' : 'bo-wd-layout'}>
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
                data={items}
                getRowId={(row) => String(row.id)}
                sorting={toSorting(view.sort)}
                onSortingChange={(updater) => {
                  const next = typeof updater === 'function' ? updater(toSorting(view.sort)) : updater;
                  go({ sort: fromSorting(next), page: 1 });
                }}
                rowClassName={rowClass}
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
      {approving && <DecisionDialog kind="payout" withdrawal={approving.row} claimFirst={approving.claimFirst} onClose={() => setApproving(null)} />}
      <ShortcutsDialog open={help} onClose={() => setHelp(false)} />
    </section>
  );
}
