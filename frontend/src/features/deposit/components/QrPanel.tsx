/**
 * QR tab of KBANK (AUTO) or a gateway (spec §2, §4, §5, §9): quick amounts and an amount, then
 * the single-use QR with the exact amount to pay, its text (to copy into a banking app), an
 * mm:ss countdown that hides the QR at 00:00, cancel, and "transfer done" (toast and close).
 * While the QR is shown it asks every few seconds whether it was paid; once paid it gives way to
 * the success (a paid QR cannot be cancelled: the server answers 409 QR_FAIL, said as such).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/ui/CopyButton';
import { Icon } from '@/components/ui/Icon';
import { TextField } from '@/components/ui/Field';
import { Spinner } from '@/components/ui/Spinner';
import { useToast } from '@/components/ui/Toast';
import { useErrorText } from '@/hooks/use-error-text';
import { isDefiniteAnswer, useIntentKey } from '@/hooks/use-intent-key';
import { formatMoney, parseAmount, type Currency } from '@/lib/money';
import { qrProgressQuery, qrStateQuery, useCancelQr, useCreateQr, type DepositBank } from '../api/deposit';
import { canCreate, qrMinimum, quickAmounts } from '../hooks/qr-rules';
import { formatMmSs, useCountdown } from '@/hooks/use-countdown';
import { QrImage } from './QrImage';

type Props = { bank: DepositBank; onDone: () => void };

export function QrPanel({ bank, onDone }: Props) {
  const { t } = useTranslation();
  const toast = useToast();
  const errorText = useErrorText('qrCreate');
  const queryClient = useQueryClient();
  const code = bank.bankCode;
  const currency = bank.currency as Currency;
  const state = useQuery(qrStateQuery(code));
  const create = useCreateQr();
  const cancel = useCancelQr();
  const intent = useIntentKey();
  const amountId = useId();
  const [amount, setAmount] = useState('');
  const [expired, setExpired] = useState(false);
  const qr = state.data?.hasQrcode ? state.data : null;
  const left = useCountdown(qr?.expireIn);
  const progress = useQuery({ ...qrProgressQuery(qr?.qrcodeId ?? ''), enabled: Boolean(qr?.qrcodeId) && left > 0 });
  // The paid QR's amount, kept once the state no longer offers the QR.
  const [paid, setPaid] = useState<number | null>(null);
  const paidRef = useRef<HTMLParagraphElement>(null);
  const minimum = qrMinimum(code, bank.bankType, bank.qrMinimum);
  const value = parseAmount(amount);

  useEffect(() => {
    if (qr && left === 0) {
      // 00:00: the QR is hidden (below) and the state refetched; then say it expired.
      void queryClient
        .invalidateQueries({ queryKey: qrStateQuery(code).queryKey })
        .then(() => setExpired(true));
    }
  }, [qr, left, code, queryClient]);

  // Paid: remember its amount now (during render, React's pattern for state derived from a
  // change), before the refetched state stops offering the QR.
  if (progress.data?.paid && qr && paid === null) setPaid(qr.amount ?? 0);

  useEffect(() => {
    if (paid === null) return;
    paidRef.current?.focus();
    void queryClient.invalidateQueries({ queryKey: qrStateQuery(code).queryKey });
    void queryClient.invalidateQueries({ queryKey: ['wallet'] });
  }, [paid, code, queryClient]);

  const onCancel = (qrcodeId: string) =>
    cancel.mutate(
      { bankCode: code, qrcodeId },
      {
        onError: (error) => {
          toast(errorText(error, 'qrCancel'), 'danger');
          // 409: it was paid meanwhile; the status says so at once.
          void queryClient.invalidateQueries({ queryKey: qrProgressQuery(qrcodeId).queryKey });
        },
      },
    );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // Spec §5: an amount below 1 is ignored.
    if (create.isPending || value === null || value < 1 || !canCreate(value, bank.bankType, minimum)) {
      return;
    }
    setExpired(false);
    create.mutate(
      { bankCode: code, amount: value, idempotencyKey: intent.current() },
      {
        onSuccess: (result) => {
          intent.renew();
          if (!result.hasQrcode) toast(errorText('QR_FAIL'), 'danger');
        },
        onError: (error) => {
          if (isDefiniteAnswer(error)) intent.renew();
          toast(errorText(error), 'danger');
        },
      },
    );
  };

  if (state.isLoading) return <Spinner />;

  if (paid !== null) {
    return (
      <div className="stack deposit-qr" role="status" aria-live="polite">
        <p className="notice notice-success" tabIndex={-1} ref={paidRef}>
          <Icon name="check" size={18} />
          <span>
            <strong>{t('deposit.qr.paidTitle')}</strong>{' '}
            {t('deposit.qr.paidText', {
              amount: `${formatMoney(paid, currency)} ${t(`common.currency.${currency}`)}`,
            })}
          </span>
        </p>
        <button type="button" className="btn btn-primary btn-block" onClick={onDone}>
          {t('common.ok')}
        </button>
      </div>
    );
  }

  if (qr && left > 0) {
    const label = t('deposit.qr.imageLabel', { amount: formatMoney(qr.amount ?? 0, currency) });
    return (
      <div className="stack deposit-qr">
        <p className="deposit-qr-amount">
          {t('deposit.qr.payExactly')}{' '}
          <strong>
            {formatMoney(qr.amount ?? 0, currency)} {t(`common.currency.${currency}`)}
          </strong>
        </p>
        {qr.qrcode && <QrImage svg={qr.qrcode} label={label} />}
        <p className="deposit-qr-timer" role="timer" aria-live="off">
          {t('deposit.qr.expiresIn')} <strong>{formatMmSs(left)}</strong>
        </p>
        {qr.payload && (
          <div className="deposit-qr-text">
            <label htmlFor={`${amountId}-payload`} className="field-label">
              {t('deposit.qr.text')}
            </label>
            <div className="row-between">
              <output id={`${amountId}-payload`} className="deposit-qr-payload">
                {qr.payload}
              </output>
              <CopyButton text={qr.payload} label={t('deposit.qr.text')} />
            </div>
          </div>
        )}
        <div className="deposit-actions">
          <button
            type="button"
            className="btn btn-secondary"
            disabled={cancel.isPending}
            onClick={() => onCancel(qr.qrcodeId ?? '')}
          >
            {t('deposit.qr.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              toast(t('deposit.qr.doneToast'), 'success');
              onDone();
            }}
          >
            {t('deposit.qr.done')}
          </button>
        </div>
      </div>
    );
  }

  const quick = quickAmounts(code, bank.bankType, bank.qrMinimum, currency);
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      {expired && (
        <p className="notice notice-warning" role="status">
          {t('deposit.qr.expired')}
        </p>
      )}
      <fieldset className="deposit-quick">
        <legend className="field-label">{t('deposit.qr.quick')}</legend>
        <div className="deposit-quick-grid">
          {quick.map((quickAmount) => (
            <button
              key={quickAmount}
              type="button"
              className="btn btn-secondary"
              aria-pressed={value === quickAmount}
              onClick={() => setAmount(String(quickAmount))}
            >
              {formatMoney(quickAmount, currency)}
            </button>
          ))}
        </div>
      </fieldset>
      <TextField
        label={t('deposit.qr.amount')}
        inputMode="decimal"
        autoComplete="off"
        value={amount}
        hint={minimum > 0 ? t('deposit.qr.minimum', { amount: formatMoney(minimum, currency) }) : undefined}
        onChange={(e) => setAmount(e.target.value)}
      />
      <p className="muted">{t('deposit.qr.singleUse')}</p>
      <button
        type="submit"
        className="btn btn-primary btn-block"
        disabled={create.isPending || !canCreate(value, bank.bankType, minimum)}
      >
        {create.isPending ? <Spinner /> : t('deposit.qr.create')}
      </button>
    </form>
  );
}
