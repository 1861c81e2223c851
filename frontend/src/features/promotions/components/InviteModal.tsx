/**
 * Invite modal (spec §2): banner carousel, the member's invite link (origin/register?code=PR<id>)
 * with copy, the accrued income with a receive button, and the income list (10 a page).
 */
import './promotions.css';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/ui/CopyButton';
import { Modal } from '@/components/ui/Modal';
import { Pagination } from '@/components/ui/Pagination';
import { Spinner } from '@/components/ui/Spinner';
import { useToast } from '@/components/ui/Toast';
import { useErrorText } from '@/hooks/use-error-text';
import { formatDateTime } from '@/lib/dates';
import { useMoney, useMoneyUnit } from '@/lib/member-currency';
import { pageCount } from '@/lib/pagination';
import { INVITE_PAGE_SIZE, useCollectInvite, useInviteBanners, useInvites } from '../api/invite';
import { BannerCarousel } from './BannerCarousel';

export function inviteLink(memberId: string, origin: string = window.location.origin): string {
  return `${origin}/register?code=PR${memberId}`;
}

type Props = { open: boolean; onClose: () => void; memberId?: string; amount?: number };

export function InviteModal({ open, onClose, memberId, amount = 0 }: Props) {
  const money = useMoney();
  const unit = useMoneyUnit();
  const { t } = useTranslation();
  const toast = useToast();
  const errorText = useErrorText('invite');
  const [page, setPage] = useState(1);
  const invites = useInvites(page, open);
  const banners = useInviteBanners(open);
  const collect = useCollectInvite();
  if (!open) return null;
  const link = memberId ? inviteLink(memberId) : '';
  const receive = () =>
    collect.mutate(undefined, {
      onSuccess: (answer) =>
        toast(t('promotions.invite.receivedToast', { amount: money(answer.amount), unit }), 'success'),
      onError: (error) => toast(errorText(error), 'danger'),
    });

  return (
    <Modal open onClose={onClose} title={t('promotions.invite.title')} wide>
      <div className="stack">
        <BannerCarousel banners={banners.data ?? []} label={t('promotions.banners')} />
        {link && (
          <div className="stack">
            <p className="small muted">{t('promotions.invite.linkLabel')}</p>
            <p className="row-between promo-link">
              <span className="mono">{link}</span>
              <CopyButton text={link} label={t('promotions.invite.linkLabel')} />
            </p>
          </div>
        )}
        <div className="row-between card">
          <span>
            {t('promotions.invite.accrued')} <strong>{money(amount)}</strong>
          </span>
          <button
            type="button"
            className="btn btn-primary"
            onClick={receive}
            disabled={collect.isPending || amount <= 0}
          >
            {collect.isPending ? <Spinner /> : t('promotions.invite.receive')}
          </button>
        </div>
        <h3 className="section-title">{t('promotions.invite.history')}</h3>
        {invites.isLoading && <Spinner />}
        <table className="promo-table">
          <caption className="visually-hidden">{t('promotions.invite.history')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('promotions.invite.from')}</th>
              <th scope="col">{t('promotions.amount')}</th>
              <th scope="col">{t('promotions.date')}</th>
            </tr>
          </thead>
          <tbody>
            {invites.data?.invites.length === 0 && (
              <tr>
                <td colSpan={3} className="empty">
                  {t('promotions.invite.empty')}
                </td>
              </tr>
            )}
            {invites.data?.invites.map((row, index) => (
              <tr key={`${row.createdAt}-${index}`}>
                <td>{row.from.name}</td>
                <td>{money(row.amount)}</td>
                <td className="small">{formatDateTime(row.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pagination
          page={page}
          count={pageCount(invites.data?.total ?? 0, INVITE_PAGE_SIZE)}
          onChange={setPage}
        />
      </div>
    </Modal>
  );
}
