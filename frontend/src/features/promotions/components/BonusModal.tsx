/** The bonus modal: banner carousel, the notice ('%percentFail%' filled in) and the receive button. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Modal } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { useErrorText } from '@/hooks/use-error-text';
import { useMoney, useMoneyUnit } from '@/lib/member-currency';
import { bonusQueries, useActivateBonus, type BonusItem } from '../api/bonus';
import { BonusDetails } from './BonusDetails';

export type Outcome = { tone: 'success' | 'error'; title: string; message: string };

type Props = {
  bonus: BonusItem;
  isCurrent: boolean;
  onClose: () => void;
  onDone: (outcome: Outcome) => void;
};

export function BonusModal({ bonus, isCurrent, onClose, onDone }: Props) {
  const money = useMoney();
  const unit = useMoneyUnit();
  const { t, i18n } = useTranslation();
  const errorText = useErrorText('bonusActivate');
  const notice = useQuery(bonusQueries.notice(i18n.language));
  const activate = useActivateBonus();

  const receive = () =>
    activate.mutate(bonus.code, {
      onSuccess: (grant) =>
        onDone({
          tone: 'success',
          title: t('common.saved'),
          message: t('promotions.bonus.received', { amount: money(grant.amount), unit }),
        }),
      onError: (error) => onDone({ tone: 'error', title: t('common.error'), message: errorText(error) }),
    });

  const noticeHtml = (notice.data?.notice ?? '').replaceAll('%percentFail%', String(bonus.percentFail));
  return (
    <Modal
      open
      onClose={onClose}
      title={bonus.name}
      dismissible={!activate.isPending}
      footer={
        isCurrent ? (
          <button type="button" className="btn btn-primary btn-block" onClick={onClose}>
            {t('common.confirm')}
          </button>
        ) : (
          <button type="button" className="btn btn-primary btn-block" onClick={receive} disabled={activate.isPending}>
            {activate.isPending ? <Spinner /> : t('promotions.bonus.receive')}
          </button>
        )
      }
    >
      <BonusDetails bonus={bonus} noticeHtml={noticeHtml} />
    </Modal>
  );
}
