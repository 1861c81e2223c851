/**
 * TrueMoney tab (spec §2): gift-link mode (paste a gift link; send disabled while empty) or AUTO
 * mode (transfer to the operator's wallet, credited automatically). Minimum 2 baht.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/ui/Field';
import { Spinner } from '@/components/ui/Spinner';
import { useToast } from '@/components/ui/Toast';
import { useErrorText } from '@/hooks/use-error-text';
import { useMoney, useMoneyUnit } from '@/lib/member-currency';
import { useSendTrueLink, type DepositWallet } from '../api/deposit';

type Props = { wallet: DepositWallet; onCredited: () => void };

export function TrueMoneyPanel({ wallet, onCredited }: Props) {
  const money = useMoney();
  const unit = useMoneyUnit();
  const { t } = useTranslation();
  const toast = useToast();
  const errorText = useErrorText('truemoney');
  const send = useSendTrueLink();
  const [link, setLink] = useState('');

  if (wallet.mode !== 'GIFT_LINK') {
    return (
      <div className="stack">
        <p>{t('deposit.truemoney.auto', { name: wallet.walletAccountName })}</p>
        <p className="muted">{t('deposit.truemoney.minimum', { unit })}</p>
      </div>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const text = link.trim();
    if (!text || send.isPending) return;
    send.mutate(text, {
      onSuccess: (result) => {
        toast(t('deposit.truemoney.success', { amount: money(result.amount), unit }), 'success');
        setLink('');
        onCredited();
      },
      onError: (error) => toast(errorText(error), 'danger'),
    });
  };

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <p>{t('deposit.truemoney.giftHelp')}</p>
      <TextField
        label={t('deposit.truemoney.link')}
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://gift.truemoney.com/campaign/?v=…"
        value={link}
        hint={t('deposit.truemoney.minimum', { unit })}
        onChange={(e) => setLink(e.target.value)}
      />
      <button
        type="submit"
        className="btn btn-primary btn-block"
        disabled={!link.trim() || send.isPending}
      >
        {send.isPending ? <Spinner /> : t('deposit.truemoney.send')}
      </button>
    </form>
  );
}
