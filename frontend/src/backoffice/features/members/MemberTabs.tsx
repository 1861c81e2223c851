/**
 * The member page's history: statement, slips, withdrawals, logins, changes, game accounts
 * (credentials on request, audited), seamless play (rounds and transactions), player protection
 * (limits and exclusions) and staff notes. The open tab is in the URL (?tab=).
 */
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { components } from '@/api/schema.gen';
import { formatDateTime } from '@/lib/dates';
import { formatMoney } from '@/lib/money';
import { Coded } from '../../components/Coded';
import { boApi } from '../../lib/api';
import { changeKindLabel, partyLabel, statementTypeLabel, statusLabel } from '../../lib/labels';
import { may, type Me } from '../../lib/permissions';
import { GameAccounts } from './GameAccounts';
import { memberKey, type MemberDetail } from './members-api';
import { Notes } from './Notes';
import { PagedTable } from './PagedTable';
import { Protection } from './Protection';
import { SeamlessPlay } from './SeamlessPlay';

type S = components['schemas'];
export const TABS = ['statement', 'slips', 'withdrawals', 'logins', 'changes', 'games', 'seamless', 'protection', 'notes'] as const;
export type Tab = (typeof TABS)[number];

const when = (at: string) => <span className="bo-nowrap">{formatDateTime(at)}</span>;

function History({ member, tab }: { member: MemberDetail; tab: Exclude<Tab, 'games' | 'seamless' | 'protection' | 'notes'> }) {
  const { t } = useTranslation();
  const params = { member_id: member.id };
  const key = [...memberKey(member.id), tab];
  const money = (amount: number) => <span className="bo-nowrap">{formatMoney(amount, member.currency)}</span>;
  const caption = t(`bo.members.tab.${tab}`);
  const statement = useMemo<ColumnDef<S['MemberStatementOut'], unknown>[]>(
    () => [
      { id: 'at', header: t('bo.members.col.at'), cell: ({ row }) => when(row.original.createdAt) },
      { id: 'type', header: t('bo.members.col.type'), cell: ({ row }) => <Coded code={row.original.type} label={statementTypeLabel(t, row.original.type)} /> },
      { id: 'status', header: t('bo.members.col.status'), cell: ({ row }) => <Coded code={row.original.status} label={statusLabel(t, row.original.status)} /> },
      { id: 'fromTo', header: t('bo.members.col.fromTo'), cell: ({ row }) => `${partyLabel(t, row.original.fromLabel)} → ${partyLabel(t, row.original.toLabel)}` },
      { id: 'amount', header: t('bo.members.col.amount'), cell: ({ row }) => money(row.original.amount) },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, member.currency],
  );
  const slips = useMemo<ColumnDef<S['MemberSlipOut'], unknown>[]>(
    () => [
      { id: 'at', header: t('bo.members.col.at'), cell: ({ row }) => when(row.original.createdAt) },
      { id: 'status', header: t('bo.members.col.status'), cell: ({ row }) => <Coded code={row.original.status} label={statusLabel(t, row.original.status)} /> },
      {
        id: 'reason',
        header: t('bo.members.col.reason'),
        cell: ({ row }) => (row.original.reason ? <Coded code={row.original.reason} label={t(`bo.deposits.reasonName.${row.original.reason}` as never, { defaultValue: row.original.reason })} /> : '—'),
      },
      { id: 'reference', header: t('bo.members.col.reference'), cell: ({ row }) => row.original.reference ?? '—' },
      { id: 'amount', header: t('bo.members.col.amount'), cell: ({ row }) => money(row.original.amount) },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, member.currency],
  );
  const withdrawals = useMemo<ColumnDef<S['MemberWithdrawalOut'], unknown>[]>(
    () => [
      { id: 'at', header: t('bo.members.col.at'), cell: ({ row }) => when(row.original.createdAt) },
      { id: 'status', header: t('bo.members.col.status'), cell: ({ row }) => <Coded code={row.original.status} label={statusLabel(t, row.original.status)} /> },
      { id: 'amount', header: t('bo.members.col.amount'), cell: ({ row }) => money(row.original.amount) },
      { id: 'bank', header: t('bo.members.bank'), cell: ({ row }) => `${row.original.bankCode} ${row.original.accountNoMasked}` },
      {
        id: 'decidedBy',
        header: t('bo.members.col.decidedBy'),
        // The staff member by name; how the decision was signed (staff:<login>) in the tooltip.
        cell: ({ row }) => (row.original.decidedBy ? <Coded code={row.original.decidedBy} label={row.original.decidedByName ?? row.original.decidedBy} /> : '—'),
      },
      { id: 'reason', header: t('bo.members.col.reason'), cell: ({ row }) => row.original.reason ?? '—' },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, member.currency],
  );
  const logins = useMemo<ColumnDef<S['MemberLoginOut'], unknown>[]>(
    () => [
      { id: 'at', header: t('bo.members.col.at'), cell: ({ row }) => when(row.original.at) },
      { id: 'ip', header: t('bo.members.col.ip'), cell: ({ row }) => row.original.ip ?? '—' },
      { id: 'device', header: t('bo.members.col.device'), cell: ({ row }) => <span className="bo-ellipsis">{row.original.userAgent ?? '—'}</span> },
      { id: 'ended', header: t('bo.members.col.ended'), cell: ({ row }) => (row.original.ended ? t('bo.members.yes') : t('bo.members.no')) },
    ],
    [t],
  );
  const changes = useMemo<ColumnDef<S['MemberChangeOut'], unknown>[]>(
    () => [
      { id: 'at', header: t('bo.members.col.at'), cell: ({ row }) => when(row.original.createdAt) },
      { id: 'kind', header: t('bo.members.col.kind'), cell: ({ row }) => <Coded code={row.original.kind} label={changeKindLabel(t, row.original.kind)} /> },
      { id: 'oldNew', header: t('bo.members.col.oldNew'), cell: ({ row }) => (row.original.kind === 'PASSWORD' ? '—' : `${row.original.oldValue ?? '—'} → ${row.original.newValue ?? '—'}`) },
      { id: 'ip', header: t('bo.members.col.ip'), cell: ({ row }) => row.original.ip ?? '—' },
      { id: 'device', header: t('bo.members.col.device'), cell: ({ row }) => <span className="bo-ellipsis">{row.original.userAgent ?? '—'}</span> },
    ],
    [t],
  );
  const id = (row: { id: number }) => String(row.id);
  switch (tab) {
    case 'statement':
      return <PagedTable queryKey={key} caption={caption} columns={statement} rowId={id} fetch={(page, limit, signal) => boApi.get('/api/backoffice/members/{member_id}/statement', { params, query: { page, limit }, signal })} />;
    case 'slips':
      return <PagedTable queryKey={key} caption={caption} columns={slips} rowId={id} fetch={(page, limit, signal) => boApi.get('/api/backoffice/members/{member_id}/slips', { params, query: { page, limit }, signal })} />;
    case 'withdrawals':
      return <PagedTable queryKey={key} caption={caption} columns={withdrawals} rowId={id} fetch={(page, limit, signal) => boApi.get('/api/backoffice/members/{member_id}/withdrawals', { params, query: { page, limit }, signal })} />;
    case 'logins':
      return <PagedTable queryKey={key} caption={caption} columns={logins} rowId={(row, i) => `${row.at}-${i}`} fetch={(page, limit, signal) => boApi.get('/api/backoffice/members/{member_id}/logins', { params, query: { page, limit }, signal })} />;
    case 'changes':
      return <PagedTable queryKey={key} caption={caption} columns={changes} rowId={id} fetch={(page, limit, signal) => boApi.get('/api/backoffice/members/{member_id}/changes', { params, query: { page, limit }, signal })} />;
  }
}

export function MemberTabs({ member, me }: { member: MemberDetail; me: Me | undefined }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab') as Tab | null;
  const tabs = TABS.filter((tab) => tab !== 'games' || may(me, 'members.sensitive.read'));
  const tab: Tab = requested && tabs.includes(requested) ? requested : 'statement';
  const select = (next: Tab) => setParams({ tab: next }, { replace: true });
  const onKey = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length] ?? 'statement';
    select(next);
    document.getElementById(`bo-member-tab-${next}`)?.focus();
  };
  return (
    <section className="bo-member-history" aria-label={t('bo.members.tabs')}>
      <div className="bo-tabs" role="tablist" aria-label={t('bo.members.tabs')}>
        {tabs.map((value) => (
          <button
            key={value}
            id={`bo-member-tab-${value}`}
            type="button"
            role="tab"
            className="bo-tab"
            aria-selected={value === tab}
            aria-controls="bo-member-tabpanel"
            tabIndex={value === tab ? 0 : -1}
            onClick={() => select(value)}
            onKeyDown={onKey}
          >
            {t(`bo.members.tab.${value}`)}
          </button>
        ))}
      </div>
      <div id="bo-member-tabpanel" role="tabpanel" aria-labelledby={`bo-member-tab-${tab}`} className="bo-tabpanel">
        {tab === 'games' ? <GameAccounts member={member} /> : tab === 'seamless' ? <SeamlessPlay member={member} /> : tab === 'protection' ? <Protection member={member} /> : tab === 'notes' ? <Notes memberId={member.id} me={me} /> : <History key={tab} member={member} tab={tab} />}
      </div>
    </section>
  );
}
