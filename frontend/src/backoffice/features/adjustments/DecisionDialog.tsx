/** Approve or reject an adjustment another staff member asked for, behind a confirmation;
 * rejecting asks why. */
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '@/api/schema.gen';
import { TextField } from '@/components/ui/Field';
import { formatMoney } from '@/lib/money';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { boApi } from '../../lib/api';
import { useAdjustmentsChanged } from './adjustments-api';
import { ApprovalReasons } from './ApprovalReasons';

type Adjustment = components['schemas']['AdjustmentOut'];
export type Decision = 'approve' | 'reject';

export function DecisionDialog({ kind, adjustment, onClose }: { kind: Decision; adjustment: Adjustment; onClose: () => void }) {
  const { t } = useTranslation();
  const formId = useId();
  const changed = useAdjustmentsChanged();
  const [reason, setReason] = useState('');
  const params = { adjustment_id: adjustment.id };
  const act = useMutation({
    mutationFn: async () => {
      if (kind === 'approve') await boApi.post('/api/backoffice/adjustments/{adjustment_id}/approve', undefined, { params });
      else await boApi.post('/api/backoffice/adjustments/{adjustment_id}/reject', { reason }, { params });
    },
    onSuccess: () => {
      changed();
      onClose();
    },
    // A refusal (already decided by someone else, money no longer there) changes what the list shows.
    onError: changed,
  });
  const what = t('bo.adjustments.summary', {
    direction: t(`bo.adjustments.direction.${adjustment.direction}`),
    amount: formatMoney(adjustment.amount, adjustment.currency),
    currency: adjustment.currency,
    phone: adjustment.memberPhone,
    requester: adjustment.requestedByName,
  });
  const common = { open: true, pending: act.isPending, error: act.error, onConfirm: () => act.mutate(), onClose };
  if (kind === 'approve') {
    return (
      <ConfirmDialog {...common} title={t('bo.adjustments.approveTitle')} confirm={t('bo.adjustments.approve')}>
        <p>{what}</p>
        <ApprovalReasons adjustment={adjustment} />
        <p className="bo-muted">{t('bo.adjustments.approveHint')}</p>
      </ConfirmDialog>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim()) act.mutate();
  };
  return (
    <ConfirmDialog {...common} title={t('bo.adjustments.rejectTitle')} confirm={t('bo.adjustments.reject')} formId={formId} danger>
      <form id={formId} className="bo-form" onSubmit={submit} noValidate>
        <p>{what}</p>
        <ApprovalReasons adjustment={adjustment} />
        <TextField
          label={t('bo.adjustments.rejectReason')}
          value={reason}
          maxLength={500}
          required
          onChange={(event) => setReason(event.target.value)}
          data-autofocus
        />
      </form>
    </ConfirmDialog>
  );
}
