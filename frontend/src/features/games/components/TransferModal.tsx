/**
 * Transfer modal (spec §2, §5, §8): choose source and destination (WALLET or a game), enter an
 * amount; select-accounts, cannot-transfer-to-itself and minimum messages; error dialog titled
 * 'error' with the server's message; success dialog ('in progress' while the provider's answer
 * is not known yet).
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from '@/components/ui/Field';
import { MessageDialog, Modal } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { useErrorText } from '@/hooks/use-error-text';
import { isDefiniteAnswer, useIntentKey } from '@/hooks/use-intent-key';
import { useMoney, useMoneyUnit } from '@/lib/member-currency';
import { parseAmount } from '@/lib/money';
import { useTransfer, WALLET, type Slot } from '../api/games';
import { providerUsable } from '../provider-state';
import './games.css';

// Spec §5 and §9: at least 1 of the wallet's currency (1 baht, 1 kip), as the server checks.
const TRANSFER_MINIMUM = 1;

type Props = {
  open: boolean;
  onClose: () => void;
  /** Called after a transfer went through (or is in progress), so balances reload. */
  onDone: () => void;
  slots: Slot[];
  walletAmount?: number;
  initialFrom?: string;
  initialTo?: string;
};

type Outcome = { tone: 'success' | 'error'; title: string; message: string } | null;

export function TransferModal({
  open,
  onClose,
  onDone,
  slots,
  walletAmount,
  initialFrom = '',
  initialTo = '',
}: Props) {
  const money = useMoney();
  const unit = useMoneyUnit();
  const { t } = useTranslation();
  const errorText = useErrorText('gameTransfer');
  const transfer = useTransfer();
  const intent = useIntentKey();
  const [from, setFrom] = useState(initialFrom);
  const [to, setTo] = useState(initialTo);
  const [amount, setAmount] = useState('');
  const [error, setError] = useState('');
  const [outcome, setOutcome] = useState<Outcome>(null);
  const active = slots.filter((slot) => slot.isActive);
  const accounts = [
    { code: WALLET, label: t('transfer.wallet'), amount: walletAmount, usable: true },
    ...active.map((slot) => ({
      code: slot.code,
      label: slot.name,
      amount: slot.amount,
      // Maintenance or down: shown, not offered (the server would refuse it anyway).
      usable: providerUsable(slot),
    })),
  ];

  const close = () => {
    setAmount('');
    setError('');
    setOutcome(null);
    onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (transfer.isPending) return;
    if (!from || !to) return setError(t('transfer.selectAccounts'));
    if (from === to) return setError(t('transfer.cannotSame'));
    const value = parseAmount(amount);
    if (value === null || value < TRANSFER_MINIMUM)
      return setError(t('transfer.minAmount', { min: money(TRANSFER_MINIMUM), unit }));
    setError('');
    transfer.mutate(
      { from, to, amount: value, idempotencyKey: intent.current() },
      {
        onSuccess: (result) => {
          intent.renew();
          onDone();
          setOutcome({
            tone: 'success',
            title: t('transfer.successTitle'),
            message: result.code === 'PENDING' ? t('transfer.pendingText') : t('transfer.successText'),
          });
        },
        onError: (err) => {
          if (isDefiniteAnswer(err)) intent.renew();
          onDone();
          setOutcome({ tone: 'error', title: t('common.error'), message: errorText(err) });
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
        title={outcome.title}
        message={outcome.message}
        onClose={outcome.tone === 'success' ? close : () => setOutcome(null)}
      />
    );
  }

  const option = (account: (typeof accounts)[number]) => {
    const label =
      account.amount === undefined ? account.label : `${account.label} (${money(account.amount)})`;
    return (
      <option key={account.code} value={account.code} disabled={!account.usable}>
        {account.usable ? label : t('transfer.unavailableOption', { label })}
      </option>
    );
  };

  return (
    <Modal
      open
      onClose={close}
      title={t('transfer.title')}
      dismissible={!transfer.isPending}
      footer={
        <button
          type="submit"
          form="transfer-form"
          className="btn btn-primary btn-block"
          disabled={transfer.isPending}
        >
          {transfer.isPending ? <Spinner /> : t('transfer.submit')}
        </button>
      }
    >
      <form id="transfer-form" className="stack" onSubmit={onSubmit} noValidate>
        <SelectField
          label={t('transfer.from')}
          value={from}
          onChange={(e) => {
            setFrom(e.target.value);
            setError('');
          }}
        >
          <option value="">{t('transfer.choose')}</option>
          {accounts.map(option)}
        </SelectField>
        <SelectField
          label={t('transfer.to')}
          value={to}
          onChange={(e) => {
            setTo(e.target.value);
            setError('');
          }}
        >
          <option value="">{t('transfer.choose')}</option>
          {accounts.map(option)}
        </SelectField>
        <TextField
          label={t('transfer.amount', { unit })}
          type="number"
          min={0}
          step="0.01"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          error={error}
          hint={t('transfer.minHint', { min: money(TRANSFER_MINIMUM), unit })}
          onChange={(e) => {
            setAmount(e.target.value);
            setError('');
          }}
        />
      </form>
    </Modal>
  );
}
