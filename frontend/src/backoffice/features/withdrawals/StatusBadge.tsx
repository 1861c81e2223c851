/** A withdrawal's status as a badge, coloured by what it means for the cashier. */
import { useTranslation } from 'react-i18next';
import type { WithdrawalStatus } from './withdrawals-query';

const TONE: Record<WithdrawalStatus, string> = {
  PENDING: 'bo-badge bo-badge-warn',
  APPROVED: 'bo-badge',
  PAID: 'bo-badge bo-badge-ok',
  REJECTED: 'bo-badge bo-badge-off',
  FAILED: 'bo-badge bo-badge-off',
};

export function StatusBadge({ status }: { status: WithdrawalStatus }) {
  const { t } = useTranslation();
  return <span className={TONE[status]}>{t(`bo.withdrawals.status.${status}`)}</span>;
}
