/**
 * The detail panel of one withdrawal: what a cashier decides on (the member and their account's
 * age, deposits of the last 7 days, the active bonus and its turnover, a recent bank account
 * change, the other members on the same bank account, the payout) and the actions: claim, then
 * release, approve through the bank, approve as paid by hand, or reject. The actions show only
 * to roles holding withdrawals.decide; the server checks the role and the claim anyway.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '@/api/schema.gen';
import { Icon } from '@/components/ui/Icon';
import { formatDateTime } from '@/lib/dates';
import { formatMoney, type Currency } from '@/lib/money';
import { boApi } from '../../lib/api';
import { useMe } from '../../lib/auth';
import { useBoErrorText } from '../../lib/errors';
import { may } from '../../lib/permissions';
import { DecisionDialog, type Decision } from './DecisionDialog';
import { StatusBadge } from './StatusBadge';
import { WITHDRAWALS_KEY } from './withdrawals-query';
import { LinkedMembers } from '../members/LinkedMembers';

type Detail = components['schemas']['WithdrawalDetailOut'];

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="bo-wd-section">
      <h3>{title}</h3>
      {children}
    </section>
  );
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="bo-wd-facts">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Actions({ detail }: { detail: Detail }) {
  const { t } = useTranslation();
  const { me } = useMe();
  const errorText = useBoErrorText();
  const queryClient = useQueryClient();
  const [decision, setDecision] = useState<Decision | null>(null);
  const w = detail.withdrawal;
  const params = { withdrawal_id: w.id };
  const claim = useMutation({
    mutationFn: (what: 'claim' | 'release') =>
      what === 'claim'
        ? boApi.post('/api/backoffice/withdrawals/{withdrawal_id}/claim', undefined, { params })
        : boApi.post('/api/backoffice/withdrawals/{withdrawal_id}/release', undefined, { params }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: WITHDRAWALS_KEY }),
  });
  if (!may(me, 'withdrawals.decide') || w.status !== 'PENDING') return null;
  const mine = w.claimedByStaffId !== null && w.claimedByStaffId === me?.id;
  const other = w.claimedByStaffId !== null && !mine;
  return (
    <div className="bo-wd-actions" role="group" aria-label={t('bo.withdrawals.actions')}>
      {other ? (
        <p className="bo-notice">{t('bo.withdrawals.claimedByOther', { name: w.claimedBy })}</p>
      ) : mine ? (
        <>
          <p className="bo-muted bo-small">
            {t('bo.withdrawals.claimedByYou', { time: w.claimExpiresAt ? formatDateTime(w.claimExpiresAt) : '' })}
          </p>
          <div className="bo-row-actions">
            <button type="button" className="bo-btn bo-btn-primary" onClick={() => setDecision('payout')}>
              {t('bo.withdrawals.approvePayout')}
            </button>
            <button type="button" className="bo-btn" onClick={() => setDecision('manual')}>
              {t('bo.withdrawals.approveManual')}
            </button>
            <button type="button" className="bo-btn bo-btn-danger" onClick={() => setDecision('reject')}>
              {t('bo.withdrawals.reject')}
            </button>
            <button type="button" className="bo-btn" disabled={claim.isPending} onClick={() => claim.mutate('release')}>
              {t('bo.withdrawals.release')}
            </button>
          </div>
        </>
      ) : (
        <button type="button" className="bo-btn bo-btn-primary" disabled={claim.isPending} onClick={() => claim.mutate('claim')}>
          {t('bo.withdrawals.claim')}
        </button>
      )}
      {claim.isError && (
        <p className="bo-error" role="alert">
          {errorText(claim.error)}
        </p>
      )}
      {decision && <DecisionDialog kind={decision} withdrawal={w} onClose={() => setDecision(null)} />}
    </div>
  );
}

export function WithdrawalDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const detail = useQuery({
    queryKey: [...WITHDRAWALS_KEY, 'detail', id],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/withdrawals/{withdrawal_id}', { params: { withdrawal_id: id }, signal }),
  });
  const d = detail.data;
  const money = (amount: number) => `${formatMoney(amount, (d?.withdrawal.currency ?? 'THB') as Currency)} ${d?.withdrawal.currency ?? ''}`;
  return (
    <aside className="bo-wd-panel" aria-labelledby="bo-wd-detail-title">
      <header className="bo-wd-panel-head">
        <h2 id="bo-wd-detail-title">{t('bo.withdrawals.detailTitle', { id })}</h2>
        <button type="button" className="icon-btn" onClick={onClose} aria-label={t('bo.withdrawals.closeDetail')}>
          <Icon name="close" size={20} />
        </button>
      </header>
      {detail.isError ? (
        <p className="bo-error" role="alert">
          {errorText(detail.error)}
        </p>
      ) : !d ? (
        <p className="bo-muted">{t('bo.loading')}</p>
      ) : (
        <>
          <div className="bo-wd-amount">
            <span className="bo-wd-amount-value">{money(d.withdrawal.amount)}</span>
            <StatusBadge status={d.withdrawal.status} />
          </div>
          {d.bankChangedRecently && (
            <p className="bo-notice bo-wd-warn" role="note">
              <Icon name="alert" size={16} /> {t('bo.withdrawals.bankChangedWarning')}
            </p>
          )}
          <Actions detail={d} />
          <Section title={t('bo.withdrawals.payTo')}>
            <Facts
              rows={[
                [t('bo.withdrawals.bank'), d.withdrawal.bankCode],
                [t('bo.withdrawals.accountName'), d.withdrawal.bankAccountName],
                [t('bo.withdrawals.accountNo'), <code className="bo-code">{d.accountNo ?? d.withdrawal.accountNoMasked}</code>],
                [t('bo.withdrawals.requestedAt'), formatDateTime(d.withdrawal.createdAt)],
                ...(d.withdrawal.decidedBy
                  ? ([[t('bo.withdrawals.decidedBy'), `${d.withdrawal.decidedBy} · ${d.withdrawal.decidedAt ? formatDateTime(d.withdrawal.decidedAt) : ''}`]] as [string, ReactNode][])
                  : []),
                ...(d.withdrawal.reason ? ([[t('bo.withdrawals.reason'), d.withdrawal.reason]] as [string, ReactNode][]) : []),
              ]}
            />
          </Section>
          <Section title={t('bo.withdrawals.member')}>
            <Facts
              rows={[
                [t('bo.withdrawals.memberName'), `${d.member.name} · #${d.member.id}`],
                [t('bo.withdrawals.phone'), d.member.phone],
                [t('bo.withdrawals.accountAge'), t('bo.withdrawals.days', { count: d.member.accountAgeDays })],
                [t('bo.withdrawals.memberStatus'), d.member.status === 'ACTIVE' ? t('bo.withdrawals.memberActive') : t('bo.withdrawals.memberInactive')],
              ]}
            />
          </Section>
          <Section title={t('bo.withdrawals.deposits', { days: d.deposits.days })}>
            <p>{t('bo.withdrawals.depositsSummary', { count: d.deposits.count, total: money(d.deposits.total) })}</p>
            {d.deposits.last.length > 0 && (
              <ul className="bo-wd-list">
                {d.deposits.last.map((dep, i) => (
                  <li key={`${dep.at}-${i}`}>
                    <span>{money(dep.amount)}</span>
                    <span className="bo-badge">{dep.channel}</span>
                    <span className="bo-muted bo-small">{formatDateTime(dep.at)}</span>
                  </li>
                ))}
              </ul>
            )}
          </Section>
          <Section title={t('bo.withdrawals.bonus')}>
            {d.activeBonus ? (
              <p>
                {d.activeBonus.name}: {t('bo.withdrawals.turnover', { done: money(d.activeBonus.turnoverDone), required: money(d.activeBonus.turnoverRequired) })}
              </p>
            ) : (
              <p className="bo-muted">{t('bo.withdrawals.noBonus')}</p>
            )}
          </Section>
          <Section title={t('bo.links.title')}>
            <LinkedMembers links={d.linkedMembers} />
          </Section>
          {d.payout && (
            <Section title={t('bo.withdrawals.payout')}>
              <Facts
                rows={[
                  [t('bo.withdrawals.payoutStatus'), d.payout.status],
                  [t('bo.withdrawals.attempts'), String(d.payout.attempts)],
                  [t('bo.withdrawals.bankReference'), d.payout.bankReference ?? '—'],
                  ...(d.payout.lastError ? ([[t('bo.withdrawals.lastError'), d.payout.lastError]] as [string, ReactNode][]) : []),
                ]}
              />
            </Section>
          )}
        </>
      )}
    </aside>
  );
}
