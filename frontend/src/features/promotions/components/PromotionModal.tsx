/** Promotion modal: looks the code up ('searching'), then shows percentFail and the description
 * with a receive button, or 'not found'. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Modal } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { useErrorText } from '@/hooks/use-error-text';
import { useMoney, useMoneyUnit } from '@/lib/member-currency';
import { bonusQueries, useActivatePromotion } from '../api/bonus';
import type { Outcome } from './BonusModal';

type Props = { code: string; onClose: () => void; onDone: (outcome: Outcome) => void };

export function PromotionModal({ code, onClose, onDone }: Props) {
  const money = useMoney();
  const unit = useMoneyUnit();
  const { t } = useTranslation();
  const errorText = useErrorText('promotionActivate');
  const found = useQuery(bonusQueries.promotion(code));
  const activate = useActivatePromotion();
  const promotion = found.data?.code ? found.data : null;

  const receive = () =>
    activate.mutate(code, {
      onSuccess: (grant) =>
        onDone({
          tone: 'success',
          title: t('common.saved'),
          message: t('promotions.bonus.received', { amount: money(grant.amount), unit }),
        }),
      onError: (error) => onDone({ tone: 'error', title: t('common.error'), message: errorText(error) }),
    });

  return (
    <Modal
      open
      onClose={onClose}
      title={t('promotions.promotion.modalTitle', { code })}
      dismissible={!activate.isPending}
      footer={
        promotion ? (
          <button type="button" className="btn btn-primary btn-block" onClick={receive} disabled={activate.isPending}>
            {activate.isPending ? <Spinner /> : t('promotions.bonus.receive')}
          </button>
        ) : undefined
      }
    >
      {found.isLoading ? (
        <p role="status" className="row-between">
          {t('promotions.promotion.searching')} <Spinner />
        </p>
      ) : promotion ? (
        <div className="stack">
          <p>{promotion.description}</p>
          <p className="notice notice-info">{t('promotions.promotion.percentFail', { percent: promotion.percentFail ?? 0 })}</p>
        </div>
      ) : (
        <p role="status" className="empty">
          {t('promotions.promotion.notFound')}
        </p>
      )}
    </Modal>
  );
}
