/**
 * Why an adjustment waits for a second staff member (the server's approvalReasons): its amount,
 * the requester's or the member's total posted alone in 24 hours. The approver reads it before
 * deciding; the requester reads it when the adjustment did not post at once.
 */
import { useTranslation } from 'react-i18next';
import type { components } from '@/api/schema.gen';

type Adjustment = components['schemas']['AdjustmentOut'];

export function ApprovalReasons({ adjustment }: { adjustment: Pick<Adjustment, 'approvalReasons' | 'requestedBy'> }) {
  const { t } = useTranslation();
  if (adjustment.approvalReasons.length === 0) return null;
  return (
    <ul className="bo-adj-why" aria-label={t('bo.adjustments.whyLabel')}>
      {adjustment.approvalReasons.map((reason) => (
        <li key={reason}>{t(`bo.adjustments.why.${reason}`, { requester: adjustment.requestedBy })}</li>
      ))}
    </ul>
  );
}
