/** Home: the invite-bonus amount waiting to be received, with its receive button (spec §2). */
import './promotions.css';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/Spinner';
import { useToast } from '@/components/ui/Toast';
import { useErrorText } from '@/hooks/use-error-text';
import { useMoney, useMoneyUnit } from '@/lib/member-currency';
import { useCollectInvite } from '../api/invite';

/** `pending`: the amount is on its way; the bar keeps its room meanwhile (hidden), so that the menu
 * below it does not move when it arrives. */
export function InviteBonusBar({ amount, pending = false }: { amount?: number; pending?: boolean }) {
  const money = useMoney();
  const unit = useMoneyUnit();
  const { t } = useTranslation();
  const toast = useToast();
  const errorText = useErrorText('invite');
  const collect = useCollectInvite();
  if (amount === undefined && !pending) return null;
  if (amount === undefined) {
    return (
      <div className="card row-between" aria-hidden="true" style={{ visibility: 'hidden' }}>
        <span>
          {t('promotions.invite.accrued')} <strong>{money(0)}</strong>
        </span>
        <button type="button" className="btn btn-primary" disabled tabIndex={-1}>
          {t('promotions.invite.receive')}
        </button>
      </div>
    );
  }
  return (
    <section className="card row-between" aria-label={t('promotions.invite.accrued')}>
      <span>
        {t('promotions.invite.accrued')} <strong>{money(amount)}</strong>
      </span>
      <button
        type="button"
        className="btn btn-primary"
        disabled={amount <= 0 || collect.isPending}
        onClick={() =>
          collect.mutate(undefined, {
            onSuccess: (answer) =>
              toast(t('promotions.invite.receivedToast', { amount: money(answer.amount), unit }), 'success'),
            onError: (error) => toast(errorText(error), 'danger'),
          })
        }
      >
        {collect.isPending ? <Spinner /> : t('promotions.invite.receive')}
      </button>
    </section>
  );
}
