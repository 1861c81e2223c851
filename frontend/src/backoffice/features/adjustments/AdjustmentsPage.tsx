/**
 * Manual adjustments, newest first: filter by status, sorted and paged by the server, the view
 * in the URL. Holders of members.credit.approve approve or reject one that awaits approval,
 * never one they asked for themselves (the server refuses it too).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { components } from '@/api/schema.gen';
import { SelectField } from '@/components/ui/Field';
import { formatDateTime } from '@/lib/dates';
import { formatMoney } from '@/lib/money';
import { DataTable, Pager } from '../../components/DataTable';
import { useMe } from '../../lib/auth';
import { boApi } from '../../lib/api';
import { useBoErrorText } from '../../lib/errors';
import { may } from '../../lib/permissions';
import { ADJUSTMENTS } from './adjustments-api';
import {
  ADJUSTMENT_STATUSES,
  adjustmentApiQuery,
  PAGE_SIZES,
  readAdjustmentView,
  writeAdjustmentView,
  type AdjustmentSort,
  type AdjustmentStatus,
  type AdjustmentView,
} from './adjustments-query';
import { DecisionDialog, type Decision } from './DecisionDialog';
import { ApprovalReasons } from './ApprovalReasons';

type Adjustment = components['schemas']['AdjustmentOut'];

const BADGE: Record<AdjustmentStatus, string> = {
  AWAITING_APPROVAL: 'bo-badge bo-badge-warn',
  POSTED: 'bo-badge bo-badge-ok',
  REJECTED: 'bo-badge bo-badge-off',
};

function toSorting(sort: AdjustmentSort): SortingState {
  return [{ id: sort.replace('-', ''), desc: sort.startsWith('-') }];
}

function fromSorting(sorting: SortingState): AdjustmentSort {
  const first = sorting[0];
  if (!first) return '-createdAt';
  return `${first.desc ? '-' : ''}${first.id}` as AdjustmentSort;
}

export default function AdjustmentsPage() {
  const { t } = useTranslation();
  const { me } = useMe();
  const errorText = useBoErrorText();
  const [params, setParams] = useSearchParams();
  const view = readAdjustmentView(params);
  const query = adjustmentApiQuery(view);
  const list = useQuery({
    queryKey: [...ADJUSTMENTS, 'list', query],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/adjustments', { query, signal }),
    placeholderData: keepPreviousData,
  });
  const [decision, setDecision] = useState<{ kind: Decision; adjustment: Adjustment } | null>(null);
  const approver = may(me, 'members.credit.approve');
  const go = (next: Partial<AdjustmentView>) => setParams(writeAdjustmentView({ ...view, ...next }));

  const columns = useMemo<ColumnDef<Adjustment, unknown>[]>(
    () => [
      {
        id: 'createdAt',
        header: t('bo.adjustments.createdAt'),
        size: 150,
        cell: ({ row }) => <span className="bo-nowrap">{formatDateTime(row.original.createdAt)}</span>,
      },
      {
        id: 'member',
        header: t('bo.adjustments.member'),
        size: 140,
        enableSorting: false,
        cell: ({ row }) => (
          <span className="bo-stack">
            <span>{row.original.memberPhone}</span>
            <span className="bo-muted bo-small">#{row.original.memberId}</span>
          </span>
        ),
      },
      {
        id: 'amount',
        header: t('bo.adjustments.amount'),
        size: 150,
        cell: ({ row }) => (
          <span className={`bo-nowrap bo-adj-amount bo-adj-${row.original.direction}`}>
            {row.original.direction === 'debit' ? '−' : '+'}
            {formatMoney(row.original.amount, row.original.currency)} {row.original.currency}
          </span>
        ),
      },
      { id: 'reason', header: t('bo.adjustments.reason'), enableSorting: false, cell: ({ row }) => row.original.reason },
      {
        id: 'status',
        header: t('bo.adjustments.status'),
        size: 130,
        cell: ({ row }) => (
          <span className="bo-stack">
            <span className={BADGE[row.original.status]}>{t(`bo.adjustments.statuses.${row.original.status}`)}</span>
            {row.original.decisionReason && <span className="bo-muted bo-small">{row.original.decisionReason}</span>}
            {row.original.status === 'AWAITING_APPROVAL' && <ApprovalReasons adjustment={row.original} />}
          </span>
        ),
      },
      {
        id: 'who',
        header: t('bo.adjustments.who'),
        size: 150,
        enableSorting: false,
        cell: ({ row }) => (
          <span className="bo-stack">
            {/* Staff by name; the login (or ops:<user>) they signed with in the tooltip. */}
            <span title={row.original.requestedBy}>{t('bo.adjustments.requestedBy', { name: row.original.requestedByName })}</span>
            {row.original.decidedBy && (
              <span className="bo-muted bo-small" title={row.original.decidedBy}>
                {t('bo.adjustments.decidedBy', { name: row.original.decidedByName ?? row.original.decidedBy })}
              </span>
            )}
          </span>
        ),
      },
      {
        id: 'actions',
        header: t('bo.table.actions'),
        size: 190,
        enableSorting: false,
        cell: ({ row }) => {
          const target = row.original;
          if (!approver || target.status !== 'AWAITING_APPROVAL') return null;
          if (target.requestedByStaffId === me?.id) return <span className="bo-muted bo-small">{t('bo.adjustments.yours')}</span>;
          const label = `${target.memberPhone} ${formatMoney(target.amount, target.currency)}`;
          return (
            <div className="bo-row-actions" role="group" aria-label={t('bo.adjustments.actionsOf', { what: label })}>
              <button type="button" className="bo-btn bo-btn-sm bo-btn-primary" onClick={() => setDecision({ kind: 'approve', adjustment: target })}>
                {t('bo.adjustments.approve')}
              </button>
              <button type="button" className="bo-btn bo-btn-sm" onClick={() => setDecision({ kind: 'reject', adjustment: target })}>
                {t('bo.adjustments.reject')}
              </button>
            </div>
          );
        },
      },
    ],
    [t, me?.id, approver],
  );

  return (
    <section className="bo-page" aria-labelledby="bo-adjustments-title">
      <header className="bo-page-head">
        <h1 id="bo-adjustments-title">{t('bo.adjustments.title')}</h1>
        {list.data && <span className="bo-muted">{t('bo.adjustments.total', { count: list.data.total })}</span>}
        <Link to="new" className="bo-btn bo-btn-primary bo-adj-new">
          {t('bo.adjustments.new')}
        </Link>
      </header>
      <div className="bo-filters bo-adj-filters">
        <SelectField
          label={t('bo.adjustments.status')}
          value={view.status}
          onChange={(event) => go({ status: event.target.value as AdjustmentStatus | '', page: 1 })}
        >
          <option value="">{t('bo.adjustments.allStatuses')}</option>
          {ADJUSTMENT_STATUSES.map((status) => (
            <option key={status} value={status}>
              {t(`bo.adjustments.statuses.${status}`)}
            </option>
          ))}
        </SelectField>
      </div>
      {list.isError ? (
        <p className="bo-error" role="alert">
          {errorText(list.error)}
        </p>
      ) : (
        <>
          <DataTable
            caption={t('bo.adjustments.title')}
            columns={columns}
            data={list.data?.items ?? []}
            getRowId={(row) => String(row.id)}
            sorting={toSorting(view.sort)}
            onSortingChange={(updater) => {
              const next = typeof updater === 'function' ? updater(toSorting(view.sort)) : updater;
              go({ sort: fromSorting(next), page: 1 });
            }}
            empty={t('bo.adjustments.empty')}
            fixedLayout
            busy={list.isFetching}
          />
          {list.data && (
            <Pager
              page={view.page}
              limit={view.limit}
              total={list.data.total}
              sizes={PAGE_SIZES}
              onPage={(page) => go({ page })}
              onLimit={(limit) => go({ limit, page: 1 })}
            />
          )}
        </>
      )}
      {decision && <DecisionDialog kind={decision.kind} adjustment={decision.adjustment} onClose={() => setDecision(null)} />}
    </section>
  );
}
