/**
 * Withdraw modal (spec §2, §5, §8): amount within the server's limits, bonus-condition warning,
 * success dialog ('wait for the transfer') or error dialog with the server's message.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/ui/Field';
import { Icon } from '@/components/ui/Icon';
import { MessageDialog, Modal } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { useErrorText } from '@/hooks/use-error-text';
import { isDefiniteAnswer, useIntentKey } from '@/hooks/use-intent-key';
import { useMoney, useMoneyUnit } from '@/lib/member-currency';
import { parseAmount } from '@/lib/money';
import { useWithdraw, withdrawLimitsQuery } from '../api/withdraw';

type Props = {
  open: boolean;
  onClose: () => void;
  /** Called once a withdrawal was accepted, so the caller reloads balances. */
  onSuccess: () => void;
  balance?: number;
  /** Destination shown to the member: bank name and formatted account number. */
  bank?: { name: string; account: string };
};

type Outcome = { tone: 'success' | 'error'; message: string } | null;

export function WithdrawModal({ open, onClose, onSuccess, balance, bank }: Props) {
  const money = useMoney();
  const unit = useMoneyUnit();
  const { t } = useTranslation();
  const errorText = useErrorText('withdraw');
  const limits = useQuery({ ...withdrawLimitsQuery(), enabled: open });
  const withdraw = useWithdraw();
  const intent = useIntentKey();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState('');
  const [outcome, setOutcome] = useState<Outcome>(null);

  const close = () => {
    setAmount('');
    setError('');
    setOutcome(null);
    onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (withdraw.isPending || !limits.data) return;
    const value = parseAmount(amount);
    const { withdrawMin, withdrawMax } = limits.data;
    if (value === null) return setError(t('withdraw.invalid'));
    if (value < withdrawMin) return setError(t('withdraw.min', { min: money(withdrawMin) }));
    if (value > withdrawMax) return setError(t('withdraw.max', { max: money(withdrawMax) }));
    setError('');
    withdraw.mutate(
      { amount: value, idempotencyKey: intent.current() },
      {
        onSuccess: () => {
          intent.renew();
          onSuccess();
          setOutcome({ tone: 'success', message: t('withdraw.successText') });
        },
        onError: (err) => {
          if (isDefiniteAnswer(err)) intent.renew();
          setOutcome({ tone: 'error', message: errorText(err) });
        },
      },
    );
  };

  if (!open) return null;
  if (outcome) {
    return (
      <MessageDialog
        open
        tone={outcome.tone}
        title={outcome.tone === 'success' ? t('withdraw.successTitle') : t('common.error')}
        message={outcome.message}
        onClose={outcome.tone === 'success' ? close : () => setOutcome(null)}
      />
    );
  }

  const data = limits.data;
  return (
    <Modal
      open
      onClose={close}
      title={t('withdraw.title')}
      dismissible={!withdraw.isPending}
      footer={
        <button
          type="submit"
          form="withdraw-form"
          className="btn btn-primary btn-block"
          disabled={!data || !amount || withdraw.isPending}
        >
          {withdraw.isPending ? <Spinner /> : t('withdraw.submit')}
        </button>
      }
    >
      <form id="withdraw-form" className="stack" onSubmit={onSubmit} noValidate>
        {bank && <p className="muted">{t('withdraw.to', { bank: bank.name, account: bank.account })}</p>}
        {balance !== undefined && (
          <p className="muted">{t('withdraw.balance', { amount: money(balance) })}</p>
        )}
        <TextField
          label={t('withdraw.amount', { unit })}
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          error={error}
          hint={
            data
              ? t('withdraw.limits', {
                  min: money(data.withdrawMin),
                  max: money(data.withdrawMax),
                })
              : undefined
          }
          onChange={(e) => {
            setAmount(e.target.value);
            setError('');
          }}
        />
        {limits.isLoading && <Spinner />}
        <p className="notice notice-warning">
          <Icon name="alert" size={18} />
          {t('withdraw.bonusWarning')}
        </p>
      </form>
    </Modal>
  );
}
