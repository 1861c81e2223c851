/**
 * Refund modal (spec §2, §8): banner carousel, this period's refund with a receive button, the
 * received amount with "add to wallet" after a confirm dialog, both disabled while a bonus is
 * held (hasBonus); errors are danger toasts, then the refund status is checked again.
 */
import './promotions.css';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/Icon';
import { Modal } from '@/components/ui/Modal';
import { Pagination } from '@/components/ui/Pagination';
import { Spinner } from '@/components/ui/Spinner';
import { useToast } from '@/components/ui/Toast';
import { useErrorText } from '@/hooks/use-error-text';
import { formatDateTime } from '@/lib/dates';
import { useMoney, useMoneyUnit } from '@/lib/member-currency';
import { pageCount } from '@/lib/pagination';
import {
  REFUND_PAGE_SIZE,
  useAddRefundToWallet,
  useReceiveRefund,
  useRefundBanners,
  useRefundCheck,
  useRefunds,
} from '../api/refund';
import { BannerCarousel } from './BannerCarousel';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';

export function RefundModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const money = useMoney();
  const unit = useMoneyUnit();
  const { t } = useTranslation();
  const toast = useToast();
  const errorText = useErrorText('refund');
  const [page, setPage] = useState(1);
  const [confirm, setConfirm] = useState(false);
  const check = useRefundCheck(open);
  const logs = useRefunds(page, open);
  const banners = useRefundBanners(open);
  const receive = useReceiveRefund();
  const addWallet = useAddRefundToWallet();
  if (!open) return null;

  const state = check.data;
  const hasBonus = state?.bonus ?? false;
  const onError = (error: unknown) => {
    toast(errorText(error), 'danger');
    void check.refetch();
  };
  const onReceive = () =>
    receive.mutate(undefined, {
      onSuccess: (answer) =>
        toast(t('promotions.refund.receivedToast', { amount: money(answer.amount), unit }), 'success'),
      onError,
    });
  const onAdd = () =>
    addWallet.mutate(undefined, {
      onSuccess: (answer) => {
        setConfirm(false);
        toast(t('promotions.refund.addedToast', { amount: money(answer.amount), unit }), 'success');
      },
      onError: (error) => {
        setConfirm(false);
        onError(error);
      },
    });

  return (
    <Modal open onClose={onClose} title={t('promotions.refund.title')} wide>
      <div className="stack">
        <BannerCarousel banners={banners.data ?? []} label={t('promotions.banners')} />
        {check.isLoading && <Spinner />}
        {state && (
          <>
            <p className="small muted">
              {t(`promotions.refund.rule.${state.info.period}`, { percent: state.info.percent })}
            </p>
            {hasBonus && (
              <p className="notice notice-warning">
                <Icon name="alert" size={18} />
                {t('promotions.refund.hasBonus')}
              </p>
            )}
            <dl className="details">
              <div className="details-row">
                <dt>{t('promotions.refund.netLoss')}</dt>
                <dd className="details-value">{money(state.info.netLoss)}</dd>
              </div>
              <div className="details-row">
                <dt>{t('promotions.refund.receivable')}</dt>
                <dd className="details-value">{money(state.refundAmount)}</dd>
              </div>
              <div className="details-row">
                <dt>{t('promotions.refund.waiting')}</dt>
                <dd className="details-value">{money(state.refundSuccess)}</dd>
              </div>
            </dl>
            <div className="promo-actions">
              <button
                type="button"
                className="btn btn-primary"
                onClick={onReceive}
                disabled={hasBonus || !state.result || receive.isPending}
              >
                {receive.isPending ? <Spinner /> : t('promotions.refund.receive')}
              </button>
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => setConfirm(true)}
                disabled={hasBonus || state.refundSuccess <= 0 || addWallet.isPending}
              >
                {t('promotions.refund.addWallet')}
              </button>
            </div>
          </>
        )}
        <h3 className="section-title">{t('promotions.refund.history')}</h3>
        <table className="promo-table">
          <caption className="visually-hidden">{t('promotions.refund.history')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('promotions.amount')}</th>
              <th scope="col">{t('promotions.date')}</th>
            </tr>
          </thead>
          <tbody>
            {logs.data?.refunds.length === 0 && (
              <tr>
                <td colSpan={2} className="empty">
                  {t('promotions.refund.empty')}
                </td>
              </tr>
            )}
            {logs.data?.refunds.map((row, index) => (
              <tr key={`${row.createdAt}-${index}`}>
                <td>{money(row.refundAmount)}</td>
                <td className="small">{formatDateTime(row.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pagination page={page} count={pageCount(logs.data?.total ?? 0, REFUND_PAGE_SIZE)} onChange={setPage} />
      </div>
      <ConfirmDialog
        open={confirm}
        title={t('promotions.refund.confirmTitle')}
        message={t('promotions.refund.confirmText', { amount: money(state?.refundSuccess ?? 0), unit })}
        confirmLabel={t('promotions.refund.addWallet')}
        busy={addWallet.isPending}
        onConfirm={onAdd}
        onCancel={() => setConfirm(false)}
      />
    </Modal>
  );
}
