/**
 * Seamless rounds their provider has not closed, opened more than N minutes ago, across
 * members, oldest first: what an operator chases with the provider. Shown with the games report.
 */
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { components } from '@/api/schema.gen';
import { formatDateTime } from '@/lib/dates';
import { formatMoney, type Currency } from '@/lib/money';
import { boApi } from '../../lib/api';
import { PagedTable } from '../members/PagedTable';

type Round = components['schemas']['SeamlessRoundOut'];

export const DEFAULT_MINUTES = 30;

/** The minutes as typed, or null when they are no whole number of minutes ≥ 0. */
export function readMinutes(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,6}$/.test(trimmed)) return null;
  return Number(trimmed);
}

export function OpenRounds() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState({ minutes: String(DEFAULT_MINUTES), provider: '' });
  const [applied, setApplied] = useState({ olderThanMinutes: DEFAULT_MINUTES, provider: undefined as string | undefined });
  const [bad, setBad] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const minutes = readMinutes(draft.minutes);
    setBad(minutes === null);
    if (minutes !== null) setApplied({ olderThanMinutes: minutes, provider: draft.provider.trim().toLowerCase() || undefined });
  };
  const money = (amount: number, currency: string) => <span className="bo-nowrap">{formatMoney(amount, currency as Currency)}</span>;
  const columns = useMemo<ColumnDef<Round, unknown>[]>(
    () => [
      { id: 'opened', header: t('bo.members.seamless.col.opened'), cell: ({ row }) => <span className="bo-nowrap">{formatDateTime(row.original.openedAt)}</span> },
      {
        id: 'member',
        header: t('bo.members.seamless.col.member'),
        cell: ({ row }) => (
          <Link className="bo-link" to={`/members/${row.original.memberId}?tab=seamless`}>
            {row.original.memberId}
          </Link>
        ),
      },
      { id: 'provider', header: t('bo.members.seamless.col.provider'), cell: ({ row }) => row.original.provider },
      { id: 'round', header: t('bo.members.seamless.col.round'), cell: ({ row }) => <code className="bo-code">{row.original.roundId}</code> },
      { id: 'game', header: t('bo.members.seamless.col.game'), cell: ({ row }) => row.original.gameCode },
      { id: 'bets', header: t('bo.members.seamless.col.bets'), cell: ({ row }) => money(row.original.bets, row.original.currency) },
      { id: 'wins', header: t('bo.members.seamless.col.wins'), cell: ({ row }) => money(row.original.wins, row.original.currency) },
    ],
    [t],
  );
  return (
    <section className="bo-panel bo-report" aria-labelledby="bo-open-rounds">
      <div className="bo-report-head">
        <h2 id="bo-open-rounds" className="bo-panel-title">
          {t('bo.reports.openRounds.title')}
        </h2>
      </div>
      <form className="bo-filters" onSubmit={submit} aria-label={t('bo.reports.openRounds.filters')} noValidate>
        <div className="bo-filter">
          <label htmlFor="bo-open-rounds-minutes">{t('bo.reports.openRounds.olderThan')}</label>
          <input
            id="bo-open-rounds-minutes"
            className="bo-input"
            inputMode="numeric"
            aria-invalid={bad ? true : undefined}
            aria-describedby={bad ? 'bo-open-rounds-minutes-error' : undefined}
            value={draft.minutes}
            onChange={(event) => setDraft({ ...draft, minutes: event.target.value })}
          />
          {bad && (
            <span id="bo-open-rounds-minutes-error" className="field-error">
              {t('bo.reports.openRounds.badMinutes')}
            </span>
          )}
        </div>
        <div className="bo-filter">
          <label htmlFor="bo-open-rounds-provider">{t('bo.members.seamless.col.provider')}</label>
          <input id="bo-open-rounds-provider" className="bo-input" placeholder={t('bo.members.seamless.allProviders')} value={draft.provider} onChange={(event) => setDraft({ ...draft, provider: event.target.value })} />
        </div>
        <div className="bo-filter-actions">
          <button type="submit" className="bo-btn bo-btn-primary">
            {t('bo.members.seamless.apply')}
          </button>
        </div>
      </form>
      <PagedTable
        key={JSON.stringify(applied)}
        queryKey={['bo', 'seamless', 'open-rounds', applied]}
        caption={t('bo.reports.openRounds.title')}
        columns={columns}
        rowId={(row) => String(row.id)}
        fetch={(page, limit, signal) => boApi.get('/api/backoffice/seamless/open-rounds', { query: { ...applied, page, limit }, signal })}
      />
    </section>
  );
}
