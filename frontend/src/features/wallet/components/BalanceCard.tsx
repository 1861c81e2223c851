/** Member name, total balance (wallet plus game accounts) and the refresh control. */
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/Icon';
import { formatDateTime } from '@/lib/dates';
import { useMemberCurrency } from '@/lib/member-currency';
import { formatMoney, sumMoney } from '@/lib/money';
import { readLocal, STORAGE_KEYS } from '@/lib/storage';
import { useWallet } from '../api/get-wallet';

export function BalanceCard() {
  const { t } = useTranslation();
  const wallet = useWallet();
  const data = wallet.data;
  const total = data ? sumMoney([data.wallet.amount, ...data.slots.map((slot) => slot.amount)]) : null;
  const lastSync = readLocal(STORAGE_KEYS.lastSync);
  const busy = wallet.isFetching;
  // The wallet's currency (this answer sets it), else the variant's usual one; kip without decimals.
  const currency = useMemberCurrency();

  return (
    <section className="balance-card" aria-labelledby="balance-title">
      <p className="balance-hello">{data ? t('home.hello', { name: data.profile.name }) : '\u00a0'}</p>
      <h1 id="balance-title" className="balance-label">
        {t('home.totalBalance')}
      </h1>
      <p className="balance-amount" aria-live="polite" aria-busy={busy}>
        {/* The amount is its own element, not the placeholder's text changed in place, so the
            browser counts its paint as the page's main content (largest contentful paint). */}
        {total === null ? '—' : <span>{formatMoney(total, currency)}</span>}
        <span className="balance-currency">{t(`common.currency.${currency}`)}</span>
      </p>
      <div className="balance-sync">
        <span className="small">
          {t('home.lastUpdate', { time: lastSync ? formatDateTime(lastSync) : t('time.never') })}
        </span>
        <button
          type="button"
          className={busy ? 'icon-btn icon-btn-light spinning' : 'icon-btn icon-btn-light'}
          onClick={() => void wallet.refetch()}
          disabled={busy}
          aria-label={t('home.refresh')}
        >
          <Icon name="refresh" size={20} />
        </button>
      </div>
    </section>
  );
}
