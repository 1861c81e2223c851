/** The confirmations of a decision on a claimed withdrawal: approve through the bank, approve as
 * paid by hand (with its bank reference) or reject (with a reason). One Idempotency-Key per
 * opened dialog, reused on retry: a double click decides once. From a clean row of the queue
 * (`claimFirst`) the approval claims the withdrawal first (or extends one's own claim): the
 * server's rules are the same as from the detail panel. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '@/api/schema.gen';
import { TextField } from '@/components/ui/Field';
import { formatMoney, type Currency } from '@/lib/money';
import { uuid } from '@/lib/uuid';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { boApi } from '../../lib/api';
import { WITHDRAWALS_KEY } from './withdrawals-query';

type Row = components['schemas']['WithdrawalRowOut'];
export type Decision = 'payout' | 'manual' | 'reject';

export function DecisionDialog({ kind, withdrawal, onClose, claimFirst = false }: { kind: Decision; withdrawal: Row; onClose: () => void; claimFirst?: boolean }) {
  const { t } = useTranslation();
  const formId = useId();
  const queryClient = useQueryClient();
  const [key] = useState(uuid);
  const [text, setText] = useState('');
  const [missing, setMissing] = useState(false);
  const params = { withdrawal_id: withdrawal.id };
  const headers = { 'Idempotency-Key': key };
  const act = useMutation({
    mutationFn: async () => {
      if (claimFirst) await boApi.post('/api/backoffice/withdrawals/{withdrawal_id}/claim', undefined, { params });
      if (kind === 'reject')
        await boApi.post('/api/backoffice/withdrawals/{withdrawal_id}/reject', { reason: text.trim() }, { params, headers });
      else
        await boApi.post(
          '/api/backoffice/withdrawals/{withdrawal_id}/approve',
          kind === 'manual' ? { mode: 'manual', reference: text.trim() } : { mode: 'payout' },
          { params, headers },
        );
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: WITHDRAWALS_KEY });
      onClose();
    },
    // A claim taken before a refused approval shows in the queue at once.
    onError: () => void queryClient.invalidateQueries({ queryKey: WITHDRAWALS_KEY }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (kind !== 'payout' && !text.trim()) {
      setMissing(true);
      return;
    }
    act.mutate();
  };
  const amount = `${formatMoney(withdrawal.amount, withdrawal.currency as Currency)} ${withdrawal.currency}`;
  const who = `${withdrawal.memberName} (${withdrawal.memberPhone})`;
  const common = { open: true, pending: act.isPending, error: act.error, onConfirm: () => act.mutate(), onClose, formId };

  if (kind === 'payout')
    return (
      <ConfirmDialog {...common} title={t('bo.withdrawals.approvePayout')} confirm={t('bo.withdrawals.approvePayout')}>
        <form id={formId} onSubmit={submit}>
          <p>{t('bo.withdrawals.confirmPayout', { amount, who, bank: withdrawal.bankCode })}</p>
        </form>
      </ConfirmDialog>
    );
  const manual = kind === 'manual';
  return (
    <ConfirmDialog
      {...common}
      title={t(manual ? 'bo.withdrawals.approveManual' : 'bo.withdrawals.reject')}
      confirm={t(manual ? 'bo.withdrawals.approveManual' : 'bo.withdrawals.reject')}
      danger={!manual}
    >
      <form id={formId} className="bo-form" onSubmit={submit} noValidate>
        <p>{t(manual ? 'bo.withdrawals.confirmManual' : 'bo.withdrawals.confirmReject', { amount, who })}</p>
        <TextField
          label={t(manual ? 'bo.withdrawals.reference' : 'bo.withdrawals.reason')}
          hint={manual ? undefined : t('bo.withdrawals.reasonHint')}
          maxLength={manual ? 200 : 500}
          value={text}
          required
          error={missing && !text.trim() ? t('bo.withdrawals.required') : undefined}
          onChange={(event) => setText(event.target.value)}
          data-autofocus
        />
      </form>
    </ConfirmDialog>
  );
}
