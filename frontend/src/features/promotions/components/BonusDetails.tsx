/**
 * The body of the bonus modal: banner carousel, description, the rules in words and the
 * notice. Presentational only, shared by the player's modal and the back office's preview.
 */
import './promotions.css';
import { useTranslation } from 'react-i18next';
import { SafeHtml } from '@/components/ui/SafeHtml';
import { useMoney, useMoneyUnit } from '@/lib/member-currency';
import type { BonusItem } from '../api/bonus';
import { BannerCarousel } from './BannerCarousel';

export type BonusFacts = Pick<BonusItem, 'description' | 'banners' | 'turnoverMultiplier' | 'minDeposit' | 'maxReceived' | 'type'>;

export function BonusDetails({ bonus, noticeHtml }: { bonus: BonusFacts; noticeHtml?: string }) {
  const { t } = useTranslation();
  const money = useMoney();
  const unit = useMoneyUnit();
  return (
    <div className="stack">
      <BannerCarousel banners={bonus.banners} label={t('promotions.banners')} />
      <p>{bonus.description}</p>
      <ul className="promo-facts small">
        <li>{t('promotions.bonus.turnoverRule', { times: bonus.turnoverMultiplier })}</li>
        {bonus.minDeposit > 0 && <li>{t('promotions.bonus.minDeposit', { amount: money(bonus.minDeposit), unit })}</li>}
        <li>{t('promotions.bonus.maxReceived', { times: bonus.maxReceived, period: t(`promotions.bonus.type.${bonus.type}`) })}</li>
      </ul>
      {noticeHtml && <SafeHtml html={noticeHtml} className="notice notice-info prose" />}
    </div>
  );
}
