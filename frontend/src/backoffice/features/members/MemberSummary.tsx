/** The member's essentials, shared by the member page and the compact panel: status, balance,
 * masked bank account, the active bonus with its turnover progress, a recent bank change. */
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@/lib/money';
import type { MemberDetail } from './members-api';

export function StatusBadge({ status }: { status: MemberDetail['status'] }) {
  const { t } = useTranslation();
  return (
    <span className={status === 'ACTIVE' ? 'bo-badge bo-badge-ok' : 'bo-badge bo-badge-off'}>
      {t(status === 'ACTIVE' ? 'bo.members.statusActive' : 'bo.members.statusSuspended')}
    </span>
  );
}

export function BonusProgress({ member }: { member: MemberDetail }) {
  const { t } = useTranslation();
  const bonus = member.activeBonus;
  if (!bonus) return <p className="bo-muted">{t('bo.members.noBonus')}</p>;
  const done = Math.min(bonus.turnoverDone, bonus.turnoverRequired);
  return (
    <div className="bo-member-bonus">
      <p className="bo-strong">{bonus.name}</p>
      <progress
        className="bo-member-progress"
        value={done}
        max={bonus.turnoverRequired || 1}
        aria-label={t('bo.members.turnover')}
      />
      <p className="bo-small bo-muted">
        {t('bo.members.turnoverOf', {
          done: formatMoney(bonus.turnoverDone, member.currency),
          required: formatMoney(bonus.turnoverRequired, member.currency),
        })}
      </p>
    </div>
  );
}

export function MemberFacts({ member }: { member: MemberDetail }) {
  const { t } = useTranslation();
  return (
    <dl className="bo-member-facts">
      <div>
        <dt>{t('bo.members.phone')}</dt>
        <dd>{member.phone}</dd>
      </div>
      <div>
        <dt>{t('bo.members.status')}</dt>
        <dd>
          <StatusBadge status={member.status} />
        </dd>
      </div>
      <div>
        <dt>{t('bo.members.balance')}</dt>
        <dd className="bo-strong">{formatMoney(member.balance, member.currency)}</dd>
      </div>
      <div>
        <dt>{t('bo.members.bank')}</dt>
        <dd>
          {member.bank.bankCode} {member.bank.accountNoMasked}
          <span className="bo-muted bo-small"> · {member.bank.accountName}</span>
        </dd>
      </div>
      {member.bankChangedRecently && (
        <div className="bo-member-fact-wide">
          <dd className="bo-notice" role="status">
            {t('bo.members.bankChangedRecently')}
          </dd>
        </div>
      )}
    </dl>
  );
}
