/**
 * Deposit review: slips that failed in a way that needs a look (open one to see the image, the
 * reason, what the bank said, and approve with an amount or reject), and payments that matched
 * no member (match one to a member: MatchDialog). The tab, page and size live in the URL.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { components } from '@/api/schema.gen';
import { formatDateTime } from '@/lib/dates';
import { formatMoney } from '@/lib/money';
import { DataTable, Pager } from '../../components/DataTable';
import { boApi } from '../../lib/api';
import { useMe } from '../../lib/auth';
import { useBoErrorText } from '../../lib/errors';
import { may } from '../../lib/permissions';
import { DEPOSITS } from './deposits-api';
import { useReasonText } from './reason-text';
import { MatchDialog } from './MatchDialog';
import { SlipReviewDialog } from './SlipReviewDialog';

type Slip = components['schemas']['SlipReviewOut'];
type Payment = components['schemas']['UnmatchedOut'];
const PAGE_SIZES = [20, 50, 100] as const;

function money(amount: number, currency: string): string {
  return formatMoney(amount, currency as 'THB');
}

export default function DepositsPage() {
  const { t } = useTranslation();
  const { me } = useMe();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'unmatched' ? 'unmatched' : 'slips';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const limit = PAGE_SIZES.find((size) => size === Number(params.get('limit'))) ?? 50;
  const go = (next: Record<string, string | number>) => {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) merged.set(key, String(value));
    setParams(merged);
  };
  return (
    <section className="bo-page" aria-labelledby="bo-deposits-title">
      <header className="bo-page-head">
        <h1 id="bo-deposits-title">{t('bo.deposits.title')}</h1>
      </header>
      <div className="bo-tabs" role="tablist" aria-label={t('bo.deposits.title')}>
        {(['slips', 'unmatched'] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={tab === name ? 'bo-tab bo-tab-active' : 'bo-tab'}
            onClick={() => go({ tab: name, page: 1 })}
          >
            {t(`bo.deposits.tab.${name}`)}
          </button>
        ))}
      </div>
      {tab === 'slips' ? (
        <SlipsTable page={page} limit={limit} go={go} canDecide={may(me, 'deposits.decide')} canSeeImage={may(me, 'members.sensitive.read')} />
      ) : (
        <UnmatchedTable page={page} limit={limit} go={go} canDecide={may(me, 'deposits.decide')} />
      )}
    </section>
  );
}

type TableProps = { page: number; limit: number; go: (next: Record<string, string | number>) => void; canDecide: boolean };

function SlipsTable({ page, limit, go, canDecide, canSeeImage }: TableProps & { canSeeImage: boolean }) {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const reasonText = useReasonText();
  const [open, setOpen] = useState<Slip | null>(null);
  const query = { status: 'OPEN', page, limit };
  const slips = useQuery({
    queryKey: [...DEPOSITS, 'slips', query],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/deposits/slips', { query, signal }),
    placeholderData: keepPreviousData,
  });
  const columns = useMemo<ColumnDef<Slip, unknown>[]>(
    () => [
      { id: 'createdAt', header: t('bo.deposits.uploadedAt'), size: 160, cell: ({ row }) => formatDateTime(row.original.createdAt) },
      { id: 'member', header: t('bo.deposits.member'), cell: ({ row }) => `${row.original.memberPhone ?? ''} (#${row.original.memberId})` },
      { id: 'reason', header: t('bo.deposits.reason'), cell: ({ row }) => <span className="bo-badge bo-badge-warn">{reasonText(row.original.reason)}</span> },
      {
        id: 'bank',
        header: t('bo.deposits.bankSaid'),
        cell: ({ row }) => {
          const lookup = row.original.bankLookup;
          if (!lookup) return t('bo.deposits.lookup.NONE');
          const said = t(`bo.deposits.lookup.${lookup.outcome}`);
          return lookup.amount != null ? `${said} · ${money(lookup.amount, row.original.currency)}` : said;
        },
      },
      {
        id: 'actions',
        header: t('bo.table.actions'),
        size: 120,
        cell: ({ row }) => (
          <button type="button" className="bo-btn bo-btn-sm" onClick={() => setOpen(row.original)}>
            {t('bo.deposits.open', { id: row.original.id })}
          </button>
        ),
      },
    ],
    [t, reasonText],
  );
  if (slips.isError)
    return (
      <p className="bo-error" role="alert">
        {errorText(slips.error)}
      </p>
    );
  return (
    <>
      <DataTable caption={t('bo.deposits.tab.slips')} columns={columns} data={slips.data?.items ?? []} getRowId={(row) => String(row.id)} empty={t('bo.deposits.emptySlips')} busy={slips.isFetching} />
      {slips.data && <Pager page={page} limit={limit} total={slips.data.total} sizes={PAGE_SIZES} onPage={(next) => go({ page: next })} onLimit={(next) => go({ limit: next, page: 1 })} />}
      {open && <SlipReviewDialog slip={open} canDecide={canDecide} canSeeImage={canSeeImage} onClose={() => setOpen(null)} />}
    </>
  );
}

function UnmatchedTable({ page, limit, go, canDecide }: TableProps) {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const [matching, setMatching] = useState<Payment | null>(null);
  const query = { page, limit };
  const payments = useQuery({
    queryKey: [...DEPOSITS, 'unmatched', query],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/deposits/unmatched', { query, signal }),
    placeholderData: keepPreviousData,
  });
  const columns = useMemo<ColumnDef<Payment, unknown>[]>(
    () => [
      { id: 'at', header: t('bo.deposits.paidAt'), size: 160, cell: ({ row }) => formatDateTime(row.original.at) },
      { id: 'kind', header: t('bo.deposits.kind'), size: 110, cell: ({ row }) => t(`bo.deposits.kindName.${row.original.kind}`) },
      { id: 'amount', header: t('bo.deposits.amount'), size: 120, cell: ({ row }) => money(row.original.amount, row.original.currency) },
      { id: 'reference', header: t('bo.deposits.reference'), cell: ({ row }) => <code className="bo-code">{row.original.reference}</code> },
      { id: 'detail', header: t('bo.deposits.detail'), cell: ({ row }) => row.original.detail },
      {
        id: 'payer',
        header: t('bo.deposits.payer'),
        cell: ({ row }) =>
          row.original.payerAccount || row.original.payerName
            ? [row.original.payerName, [row.original.payerBank, row.original.payerAccount].filter(Boolean).join(' ')].filter(Boolean).join(' · ')
            : '—',
      },
      ...(canDecide
        ? [
            {
              id: 'actions',
              header: t('bo.table.actions'),
              size: 120,
              cell: ({ row }: { row: { original: Payment } }) => (
                <button type="button" className="bo-btn bo-btn-sm" onClick={() => setMatching(row.original)}>
                  {t('bo.deposits.match')}
                </button>
              ),
            } satisfies ColumnDef<Payment, unknown>,
          ]
        : []),
    ],
    [t, canDecide],
  );
  if (payments.isError)
    return (
      <p className="bo-error" role="alert">
        {errorText(payments.error)}
      </p>
    );
  return (
    <>
      <DataTable caption={t('bo.deposits.tab.unmatched')} columns={columns} data={payments.data?.items ?? []} getRowId={(row) => `${row.kind}-${row.id}`} empty={t('bo.deposits.emptyUnmatched')} busy={payments.isFetching} />
      {payments.data && <Pager page={page} limit={limit} total={payments.data.total} sizes={PAGE_SIZES} onPage={(next) => go({ page: next })} onLimit={(next) => go({ limit: next, page: 1 })} />}
      {matching && <MatchDialog payment={matching} onClose={() => setMatching(null)} />}
    </>
  );
}
