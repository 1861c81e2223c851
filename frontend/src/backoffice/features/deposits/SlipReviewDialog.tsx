/** One slip under review: the image (if the role may see it), the reason code, what the bank
 * lookup said, and approve with an amount or reject with a reason. */
import { useMutation } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '@/api/schema.gen';
import { TextField } from '@/components/ui/Field';
import { formatDateTime } from '@/lib/dates';
import { formatMoney, parseAmount } from '@/lib/money';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { boApi } from '../../lib/api';
import { useDepositsChanged, newIdempotencyKey, useSlipImage } from './deposits-api';
import { useReasonText } from './reason-text';

type Slip = components['schemas']['SlipReviewOut'];

export function SlipReviewDialog({
  slip,
  canDecide,
  canSeeImage,
  onClose,
}: {
  slip: Slip;
  canDecide: boolean;
  canSeeImage: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const reasonText = useReasonText();
  const changed = useDepositsChanged();
  const image = useSlipImage(canSeeImage ? slip.id : null);
  const lookup = slip.bankLookup;
  const [decision, setDecision] = useState<'approve' | 'reject'>('approve');
  const [amount, setAmount] = useState(lookup?.amount ? String(lookup.amount) : '');
  const [reason, setReason] = useState('');
  // One key for this dialog's approval: a double click or a retry replays, never credits twice.
  const key = useRef(newIdempotencyKey());
  const params = { slip_id: slip.id };
  const decide = useMutation({
    mutationFn: async () => {
      if (decision === 'approve') {
        const value = parseAmount(amount);
        await boApi.post(
          '/api/backoffice/deposits/slips/{slip_id}/approve',
          { amount: value ?? 0 },
          { params, headers: { 'Idempotency-Key': key.current } },
        );
      } else {
        await boApi.post('/api/backoffice/deposits/slips/{slip_id}/reject', { reason }, { params });
      }
    },
    onSuccess: () => {
      changed();
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    decide.mutate();
  };
  const open = slip.reviewStatus === 'OPEN' && canDecide;
  return (
    <ConfirmDialog
      open
      wide
      title={t('bo.deposits.slipTitle', { id: slip.id })}
      confirm={open ? t(decision === 'approve' ? 'bo.deposits.approve' : 'bo.deposits.reject') : t('common.close')}
      danger={decision === 'reject'}
      pending={decide.isPending}
      error={decide.error}
      formId={open ? formId : undefined}
      onConfirm={open ? () => decide.mutate() : onClose}
      onClose={onClose}
    >
      <div className="bo-deposit-review">
        <div className="bo-deposit-image">
          {!canSeeImage ? (
            <p className="bo-muted">{t('bo.deposits.imageHidden')}</p>
          ) : image.url ? (
            <img src={image.url} alt={t('bo.deposits.imageAlt', { id: slip.id })} />
          ) : (
            <p className="bo-muted">{image.failed ? t('bo.deposits.imageFailed') : t('bo.deposits.imageLoading')}</p>
          )}
        </div>
        <div className="bo-stack">
          <dl className="bo-deposit-facts">
            <dt>{t('bo.deposits.member')}</dt>
            <dd>
              {slip.memberPhone} · {slip.memberName} (#{slip.memberId})
            </dd>
            <dt>{t('bo.deposits.reason')}</dt>
            <dd>
              <span className="bo-badge bo-badge-warn">{reasonText(slip.reason)}</span> <code className="bo-code">{slip.reason}</code>
            </dd>
            <dt>{t('bo.deposits.uploadedAt')}</dt>
            <dd>{formatDateTime(slip.createdAt)}</dd>
            <dt>{t('bo.deposits.reference')}</dt>
            <dd>{slip.reference ?? '—'}</dd>
            <dt>{t('bo.deposits.bankSaid')}</dt>
            <dd>{lookup ? t(`bo.deposits.lookup.${lookup.outcome}`) : t('bo.deposits.lookup.NONE')}</dd>
            {lookup?.outcome === 'FOUND' && (
              <>
                <dt>{t('bo.deposits.amount')}</dt>
                <dd>{formatMoney(lookup.amount ?? 0, slip.currency as 'THB')}</dd>
                <dt>{t('bo.deposits.from')}</dt>
                <dd>
                  {lookup.senderBank} {lookup.senderAccount}
                </dd>
                <dt>{t('bo.deposits.to')}</dt>
                <dd>
                  {lookup.receiverBank} {lookup.receiverAccount}
                </dd>
              </>
            )}
            {slip.reviewStatus !== 'OPEN' && (
              <>
                <dt>{t('bo.deposits.decision')}</dt>
                <dd>
                  {t(`bo.deposits.review.${slip.reviewStatus ?? 'OPEN'}`)} · {slip.reviewedBy} {slip.reviewNote}
                </dd>
              </>
            )}
          </dl>
          {open && (
            <form id={formId} className="bo-form" onSubmit={submit} noValidate>
              <fieldset className="bo-deposit-choice">
                <legend>{t('bo.deposits.decision')}</legend>
                <label>
                  <input type="radio" name="decision" checked={decision === 'approve'} onChange={() => setDecision('approve')} />
                  {t('bo.deposits.approve')}
                </label>
                <label>
                  <input type="radio" name="decision" checked={decision === 'reject'} onChange={() => setDecision('reject')} />
                  {t('bo.deposits.reject')}
                </label>
              </fieldset>
              {decision === 'approve' ? (
                <TextField
                  label={t('bo.deposits.approveAmount')}
                  inputMode="decimal"
                  value={amount}
                  onChange={(event) => setAmount(event.target.value)}
                />
              ) : (
                <TextField
                  label={t('bo.deposits.rejectReason')}
                  maxLength={500}
                  value={reason}
                  onChange={(event) => setReason(event.target.value)}
                />
              )}
            </form>
          )}
        </div>
      </div>
    </ConfirmDialog>
  );
}
