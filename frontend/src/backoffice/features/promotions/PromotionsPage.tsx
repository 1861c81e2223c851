/**
 * Promotions: the bonuses players see on the bonus page and the promotion codes they type, with
 * what each has given (grants by state, cost, claimed against the total limit). A manager
 * creates, edits, retires and re-activates them (never deletes: grants are receipts); every
 * change is audited by the server and shows to players at their next request.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { variantCurrency } from '@/lib/member-currency';
import { formatMoney } from '@/lib/money';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { boApi } from '../../lib/api';
import { useBoErrorText } from '../../lib/errors';
import { BonusDialog, PROMOTIONS } from './BonusDialog';
import type { Bonus, Kind } from './form';

const KINDS: readonly Kind[] = ['bonus', 'promotion'];

export default function PromotionsPage() {
  const { t, i18n } = useTranslation();
  const errorText = useBoErrorText();
  const [kind, setKind] = useState<Kind>('bonus');
  const list = useQuery({
    queryKey: [...PROMOTIONS, kind],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/promotions', { signal, query: { kind } }),
  });
  const [editing, setEditing] = useState<Bonus | 'new' | null>(null);
  const [toggling, setToggling] = useState<Bonus | null>(null);
  const lang = i18n.language as 'th' | 'la' | 'en';

  const columns = useMemo<ColumnDef<Bonus, unknown>[]>(
    () => [
      // The players' order of the bonus cards (the list is in that order); codes are never listed.
      ...(kind === 'bonus' ? [{ id: 'sortOrder', header: t('bo.promotions.order'), size: 70, cell: ({ row }) => row.original.sortOrder } satisfies ColumnDef<Bonus, unknown>] : []),
      { id: 'code', header: t('bo.promotions.code'), size: 130, cell: ({ row }) => <span className="bo-strong">{row.original.code}</span> },
      { id: 'name', header: t('bo.promotions.name'), cell: ({ row }) => row.original.name[lang] || row.original.name.th || row.original.name.en || row.original.name.la || '—' },
      {
        id: 'amount',
        header: t('bo.promotions.amount'),
        size: 170,
        cell: ({ row }) => {
          const b = row.original;
          const gives = b.percent > 0 ? `${b.percent}%` : formatMoney(b.fixedAmount, variantCurrency());
          return t('bo.promotions.amountCell', { gives, max: formatMoney(b.maxAmount, variantCurrency()) });
        },
      },
      {
        id: 'limit',
        header: t('bo.promotions.perMember'),
        size: 130,
        cell: ({ row }) =>
          row.original.oncePerMember ? t('bo.promotions.oncePerMember') : t('bo.promotions.perPeriod', { times: row.original.maxReceived, period: t(`bo.promotions.typeName.${row.original.type}`) }),
      },
      {
        id: 'usage',
        header: t('bo.promotions.usage'),
        size: 230,
        cell: ({ row }) => {
          const u = row.original.usage;
          return (
            <span>
              {t('bo.promotions.usageCell', { granted: u.granted, active: u.active, cleared: u.cleared, ended: u.ended })}
              {row.original.kind === 'promotion' && (
                <>
                  <br />
                  {t('bo.promotions.claimed', { claimed: row.original.claimedCount, limit: row.original.totalLimit ?? '∞' })}
                </>
              )}
            </span>
          );
        },
      },
      { id: 'cost', header: t('bo.promotions.cost'), size: 120, cell: ({ row }) => row.original.usage.cost.map((c) => `${formatMoney(c.amount, c.currency as 'THB' | 'LAK')} ${c.currency}`).join(', ') || '0' },
      {
        id: 'window',
        header: t('bo.promotions.window'),
        size: 150,
        cell: ({ row }) => {
          const { validFrom, validUntil } = row.original;
          if (!validFrom && !validUntil) return t('bo.promotions.always');
          const at = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'short' }) : '…');
          return `${at(validFrom)} – ${at(validUntil)}`;
        },
      },
      {
        id: 'status',
        header: t('bo.promotions.status'),
        size: 100,
        cell: ({ row }) =>
          row.original.isActive ? <span className="bo-badge bo-badge-ok">{t('bo.promotions.active')}</span> : <span className="bo-badge bo-badge-off">{t('bo.promotions.retired')}</span>,
      },
      {
        id: 'actions',
        header: t('bo.table.actions'),
        size: 190,
        cell: ({ row }) => (
          <div className="bo-row-actions" role="group" aria-label={t('bo.promotions.actionsOf', { code: row.original.code })}>
            <button type="button" className="bo-btn bo-btn-sm" onClick={() => setEditing(row.original)}>
              {t('bo.promotions.edit')}
            </button>
            <button type="button" className="bo-btn bo-btn-sm" onClick={() => setToggling(row.original)}>
              {t(row.original.isActive ? 'bo.promotions.retire' : 'bo.promotions.reactivate')}
            </button>
          </div>
        ),
      },
    ],
    [t, i18n.language, lang, kind],
  );

  return (
    <section className="bo-page" aria-labelledby="bo-promotions-title">
      <header className="bo-page-head">
        <h1 id="bo-promotions-title">{t('bo.promotions.title')}</h1>
        <button type="button" className="bo-btn bo-btn-primary" onClick={() => setEditing('new')}>
          {t(kind === 'bonus' ? 'bo.promotions.addBonus' : 'bo.promotions.addCode')}
        </button>
      </header>
      <div className="bo-tabs" role="tablist" aria-label={t('bo.promotions.kind')}>
        {KINDS.map((value) => (
          <button key={value} type="button" role="tab" aria-selected={kind === value} className={kind === value ? 'bo-tab bo-tab-active' : 'bo-tab'} onClick={() => setKind(value)}>
            {t(`bo.promotions.kindName.${value}`)}
          </button>
        ))}
      </div>
      {list.isError ? (
        <p className="bo-error" role="alert">
          {errorText(list.error)}
        </p>
      ) : (
        <DataTable
          caption={t(`bo.promotions.kindName.${kind}`)}
          columns={columns}
          data={list.data?.items ?? []}
          getRowId={(row) => String(row.id)}
          rowClassName={(row) => (row.isActive ? undefined : 'bo-row-muted')}
          empty={t('bo.promotions.empty')}
          busy={list.isFetching}
        />
      )}
      {editing && <BonusDialog bonus={editing === 'new' ? null : editing} kind={kind} onClose={() => setEditing(null)} />}
      {toggling && <ToggleDialog bonus={toggling} onClose={() => setToggling(null)} />}
    </section>
  );
}

function ToggleDialog({ bonus, onClose }: { bonus: Bonus; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: () =>
      bonus.isActive
        ? boApi.post('/api/backoffice/promotions/{bonus_id}/retire', undefined, { params: { bonus_id: bonus.id } })
        : boApi.post('/api/backoffice/promotions/{bonus_id}/reactivate', undefined, { params: { bonus_id: bonus.id } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: PROMOTIONS });
      void queryClient.invalidateQueries({ queryKey: ['bo', 'audit'] });
      onClose();
    },
  });
  const verb = bonus.isActive ? 'bo.promotions.retire' : 'bo.promotions.reactivate';
  return (
    <ConfirmDialog open title={t(verb)} confirm={t(verb)} danger={bonus.isActive} pending={toggle.isPending} error={toggle.error} onConfirm={() => toggle.mutate()} onClose={onClose}>
      <p>{t(bonus.isActive ? 'bo.promotions.confirmRetire' : 'bo.promotions.confirmReactivate', { code: bonus.code })}</p>
    </ConfirmDialog>
  );
}
