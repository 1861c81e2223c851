/**
 * One 3D carousel of game cards (spec §2, §9): three cards shown, 300×211, 330 px apart (scaled
 * to a phone's width: games.css), swipe on touch, arrow keys on the front card, previous/next buttons. Clicking the front card (or a side
 * card) opens the game account modal.
 */
import { useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/Icon';
import { useMoney } from '@/lib/member-currency';
import { SITE_OR_WEB, cssUrl, safeUrl } from '@/lib/safe-url';
import type { Slot } from '../api/games';
import { providerNotice } from '../provider-state';
import { useSwipe } from '@/hooks/use-swipe';
import { ringOffset } from './ring';

type Props = {
  id: string;
  title: string;
  slots: Slot[];
  /** Draw the front card alone (the screen's first paint, GameSection). */
  frontOnly?: boolean;
  /** The wallet's balance: what a seamless game's card shows (its games spend the wallet). */
  walletAmount?: number;
  onOpen: (slot: Slot) => void;
};

/** The card's place on the ring; the geometry is the stylesheet's (games.css), sized to the
 * screen. */
function cardStyle(offset: number): CSSProperties {
  const depth = Math.abs(offset);
  return {
    '--offset': offset,
    '--depth': depth,
    opacity: depth > 1 ? 0 : depth === 1 ? 0.8 : 1,
    zIndex: 10 - depth,
  } as CSSProperties;
}

export function GameCarousel({ id, title, slots, frontOnly = false, walletAmount, onOpen }: Props) {
  const money = useMoney();
  const { t } = useTranslation();
  const actionOf = (slot: Slot) =>
    slot.mode === 'seamless'
      ? t('games.play')
      : slot.isActive
        ? t('games.viewData')
        : t('games.openAccount');
  const [active, setActive] = useState(0);
  const cards = useRef<(HTMLButtonElement | null)[]>([]);
  const last = slots.length - 1;
  const ring = slots.length >= 3;
  const go = (next: number, focus = false) => {
    const index = ring ? (next + slots.length) % slots.length : Math.min(last, Math.max(0, next));
    setActive(index);
    // Keyboard users stay on the front card as it changes.
    if (focus) requestAnimationFrame(() => cards.current[index]?.focus());
  };
  const { onTouchStart, onTouchEnd } = useSwipe(
    () => go(active - 1),
    () => go(active + 1),
  );
  if (slots.length === 0) return null;

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowLeft') go(active - 1, true);
    else if (event.key === 'ArrowRight') go(active + 1, true);
    else return;
    event.preventDefault();
  };

  return (
    <section className="carousel" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="carousel-title">
        {title}
      </h3>
      <div
        className="carousel-stage"
        role="group"
        aria-roledescription={t('games.carousel')}
        aria-label={t('games.carouselHint', { title })}
        onTouchStart={onTouchStart}
        onTouchEnd={onTouchEnd}
      >
        {slots.map((slot, index) => {
          const offset = ringOffset(index, active, slots.length);
          // Only the cards shown and the next ones a swipe brings in (invisible, so that they
          // slide in): the others would cost a cheap phone their layout, layers and artwork.
          if (Math.abs(offset) > (frontOnly ? 0 : 2)) return null;
          const hidden = Math.abs(offset) > 1;
          // Maintenance or down: said on the card (and in its name), instead of a balance error.
          const notice = providerNotice(slot, t);
          return (
            <button
              key={slot.code}
              ref={(element) => {
                cards.current[index] = element;
              }}
              type="button"
              className="game-card"
              style={{ ...cardStyle(offset), backgroundImage: cssUrl(slot.background) }}
              aria-hidden={hidden}
              tabIndex={hidden || offset !== 0 ? -1 : 0}
              aria-label={t('games.cardLabel', {
                name: slot.name,
                state: notice ?? actionOf(slot),
              })}
              onClick={() => (offset === 0 ? onOpen(slot) : go(index))}
              onKeyDown={onKeyDown}
            >
              <img className="game-card-logo" src={safeUrl(slot.logo, SITE_OR_WEB) || undefined} alt="" />
              <span className="game-card-action">{actionOf(slot)}</span>
              <span className="game-card-body">
                {slot.mode === 'seamless' ? (
                  // No game account: its games spend the wallet itself.
                  <>
                    <span className="game-card-amount">{money(walletAmount ?? 0)}</span>
                    <span className="game-card-meta">{t('games.fromWallet')}</span>
                  </>
                ) : (
                  <>
                    <span className="game-card-amount">{money(slot.amount)}</span>
                    <span className="game-card-meta">
                      {t('games.credit', {
                        factor: slot.ftWalletSlot,
                        amount: money(slot.amount * slot.ftWalletSlot),
                      })}
                      {slot.stale && <span className="game-card-stale"> · {t('games.stale')}</span>}
                    </span>
                  </>
                )}
                {notice && <span className="game-card-status">{notice}</span>}
              </span>
            </button>
          );
        })}
      </div>
      <div className="carousel-nav">
        <button
          type="button"
          className="icon-btn"
          onClick={() => go(active - 1)}
          disabled={!ring && active === 0}
          aria-label={t('games.previous', { title })}
        >
          <Icon name="chevronLeft" />
        </button>
        <span className="carousel-count" aria-live="polite">
          {active + 1} / {slots.length}
        </span>
        <button
          type="button"
          className="icon-btn"
          onClick={() => go(active + 1)}
          disabled={!ring && active === last}
          aria-label={t('games.next', { title })}
        >
          <Icon name="chevronRight" />
        </button>
      </div>
    </section>
  );
}
