/**
 * Deposit modal (spec §2): the ways in from GET /api/lookup/deposit as tabs — bank transfer
 * (account details + the slip upload passed in by the route), QR for KBANK AUTO and gateways,
 * TrueMoney. Loaded lazily with the home screen's deposit widget.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Modal } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { bankName } from '@/lib/bank';
import { paths } from '@/lib/paths';
import { depositLookupQuery, type DepositBank, type DepositWallet } from '../api/deposit';
import { isGateway } from '../hooks/qr-rules';
import { BankTransferPanel } from './BankTransferPanel';
import { QrPanel } from './QrPanel';
import { TrueMoneyPanel } from './TrueMoneyPanel';
import './deposit.css';

type Props = {
  open: boolean;
  onClose: () => void;
  /** Called when money may have arrived (transfer done, gift link credited): reload balances. */
  onCredited: () => void;
  /** The slips feature's upload form, shown on the bank-transfer tab. */
  renderSlipUpload?: () => ReactNode;
  /** The member's wallet currency once known: only ways in that credit it are offered. */
  currency?: string;
};

type Channel =
  | { key: string; kind: 'bank'; bank: DepositBank }
  | { key: string; kind: 'qr'; bank: DepositBank }
  | { key: string; kind: 'wallet'; wallet: DepositWallet };

function channelsOf(banks: DepositBank[], wallets: DepositWallet[], currency?: string): Channel[] {
  // A Lao kip wallet is paid through Lao banks only; Thai banks, the gateways and TrueMoney
  // take baht (a QR of theirs would be refused with QR_FAIL).
  const list: Channel[] = banks.filter((bank) => !currency || bank.currency === currency).map((bank) =>
    isGateway(bank.bankType) || bank.mode === 'AUTO'
      ? { key: `qr-${bank.bankCode}`, kind: 'qr', bank }
      : { key: `bank-${bank.bankCode}`, kind: 'bank', bank },
  );
  if (!currency || currency === 'THB') {
    wallets.forEach((wallet, index) => list.push({ key: `wallet-${index}`, kind: 'wallet', wallet }));
  }
  return list;
}

export function DepositModal({ open, onClose, onCredited, renderSlipUpload, currency }: Props) {
  const { t, i18n } = useTranslation();
  const lookup = useQuery({ ...depositLookupQuery(), enabled: open });
  const baseId = useId();
  const [selected, setSelected] = useState<string | null>(null);
  if (!open) return null;

  const channels = lookup.data ? channelsOf(lookup.data.banks, lookup.data.wallets, currency) : [];
  const current = channels.find((c) => c.key === selected) ?? channels[0];
  const label = (channel: Channel) =>
    channel.kind === 'wallet'
      ? t('deposit.truemoney.tab')
      : channel.kind === 'qr'
        ? t('deposit.qrTab', { name: bankName(channel.bank.bank, i18n.language) })
        : bankName(channel.bank.bank, i18n.language);

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!current || (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft')) return;
    const index = channels.indexOf(current);
    const step = event.key === 'ArrowRight' ? 1 : -1;
    const next = channels[(index + step + channels.length) % channels.length];
    if (!next) return;
    setSelected(next.key);
    document.getElementById(`${baseId}-tab-${next.key}`)?.focus();
  };

  const done = () => {
    onCredited();
    onClose();
  };

  return (
    <Modal open onClose={onClose} title={t('deposit.title')}>
      {lookup.isLoading && <Spinner />}
      {lookup.data && channels.length === 0 && <p className="muted">{t('deposit.none')}</p>}
      {current && (
        <div className="stack">
          <div
            className="deposit-tabs"
            role="tablist"
            aria-label={t('deposit.ways')}
          >
            {channels.map((channel) => (
              <button
                key={channel.key}
                id={`${baseId}-tab-${channel.key}`}
                type="button"
                role="tab"
                className="deposit-tab"
                aria-selected={channel.key === current.key}
                aria-controls={`${baseId}-panel`}
                tabIndex={channel.key === current.key ? 0 : -1}
                onClick={() => setSelected(channel.key)}
                onKeyDown={onKeyDown}
              >
                {label(channel)}
              </button>
            ))}
          </div>
          <div
            id={`${baseId}-panel`}
            role="tabpanel"
            aria-labelledby={`${baseId}-tab-${current.key}`}
            key={current.key}
          >
            {current.kind === 'bank' && (
              <BankTransferPanel bank={current.bank} renderSlipUpload={renderSlipUpload} />
            )}
            {current.kind === 'qr' && <QrPanel bank={current.bank} onDone={done} />}
            {current.kind === 'wallet' && (
              <TrueMoneyPanel wallet={current.wallet} onCredited={onCredited} />
            )}
          </div>
        </div>
      )}
      {/* Issue 33 §4: the deposit limits and breaks are one tap away from depositing. */}
      <p className="deposit-protection">
        <Link to={paths.user.protection} onClick={onClose}>
          {t('protection.depositLink')}
        </Link>
      </p>
    </Modal>
  );
}
