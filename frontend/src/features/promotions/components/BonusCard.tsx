/**
 * One card of the bonus page: the first banner's image behind the name and the state badge.
 * Presentational only (no data, no calls), so the back office's bonus editor shows the very
 * same card as its preview.
 */
import './promotions.css';
import { useTranslation } from 'react-i18next';

export type CardState = 'current' | 'received' | 'clickable';

type Props = {
  name: string;
  image?: string;
  state: CardState;
  onClick?: () => void;
};

export function BonusCard({ name, image, state, onClick }: Props) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={`promo-card promo-card-${state}`}
      style={image ? { backgroundImage: `url("${image}")` } : undefined}
      disabled={state === 'received'}
      onClick={onClick}
    >
      <span className="promo-card-name">{name}</span>
      <span className="promo-card-state">{t(`promotions.bonus.state.${state}`)}</span>
    </button>
  );
}
