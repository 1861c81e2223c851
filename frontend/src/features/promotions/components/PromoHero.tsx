/**
 * The home screen's promotions hero: the operator's bonus banners (GET /api/bonus, each bonus's
 * first banner) as a carousel (WAI-ARIA APG "carousel"): a slide at a time, previous / next,
 * pause / play, swipe; it turns on its own every few seconds unless paused, hovered, focused or
 * the user asked for reduced motion (then it neither turns nor slides). A slide opens the bonus
 * page, where the promotion is received.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '@/components/ui/Icon';
import { paths } from '@/lib/paths';
import { SITE_OR_WEB, safeUrl } from '@/lib/safe-url';
import { useBonuses } from '../api/bonus';
import './hero.css';
import { useSwipe } from '@/hooks/use-swipe';

export const TURN_MS = 6000;

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/** `enabled` false until the screen's main content is painted (hooks/use-painted). */
export function PromoHero({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const bonuses = useBonuses(enabled);
  const slides = (bonuses.data ?? []).flatMap((bonus) => {
    const image = safeUrl(bonus.banners[0]?.image, SITE_OR_WEB);
    return image ? [{ code: bonus.code, name: bonus.name, image }] : [];
  });
  const [index, setIndex] = useState(0);
  // Paused by the button (sticky) or while the pointer or the focus is on the carousel.
  const [paused, setPaused] = useState(prefersReducedMotion);
  const [held, setHeld] = useState(false);
  const count = slides.length;
  const current = count ? index % count : 0;
  const turning = count > 1 && !paused && !held;

  useEffect(() => {
    if (!turning) return;
    const timer = window.setTimeout(() => setIndex((i) => i + 1), TURN_MS);
    return () => window.clearTimeout(timer);
  }, [turning, index]);

  const go = (next: number) => setIndex(((next % count) + count) % count);
  const { onTouchStart, onTouchEnd } = useSwipe(
    () => go(current - 1),
    () => go(current + 1),
  );

  if (count === 0) return null;

  return (
    <section
      className="hero"
      aria-roledescription={t('home.hero.carousel')}
      aria-label={t('home.hero.label')}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setHeld(false);
      }}
    >
      <div
        className="hero-viewport"
        onTouchStart={onTouchStart}
        onTouchEnd={onTouchEnd}
        // Announced when the user moves it, not every few seconds on its own.
        aria-live={turning ? 'off' : 'polite'}
      >
        <div className="hero-track" style={{ transform: `translateX(${-current * 100}%)` }}>
          {slides.map((slide, i) => (
            <div
              key={slide.code}
              className="hero-slide"
              role="group"
              aria-roledescription={t('home.hero.slide')}
              aria-label={t('home.hero.position', { index: i + 1, total: count })}
              aria-hidden={i !== current}
            >
              {/* Only the slide shown is reachable: the others are hidden from everyone. */}
              <Link to={paths.user.bonus} className="hero-link" tabIndex={i === current ? undefined : -1}>
                <img
                  src={slide.image}
                  alt=""
                  width={600}
                  height={422}
                  loading={i === 0 ? 'eager' : 'lazy'}
                  decoding="async"
                />
                <span className="hero-caption">
                  <span className="hero-name">{slide.name}</span>
                  <span className="hero-cta">
                    {t('home.hero.open')} <Icon name="chevronRight" size={16} />
                  </span>
                </span>
              </Link>
            </div>
          ))}
        </div>
      </div>
      {count > 1 && (
        <div className="hero-controls">
          <button
            type="button"
            className="icon-btn hero-btn"
            aria-label={paused ? t('home.hero.play') : t('home.hero.pause')}
            onClick={() => setPaused((p) => !p)}
          >
            <Icon name={paused ? 'play' : 'pause'} size={20} />
          </button>
          <button
            type="button"
            className="icon-btn hero-btn"
            aria-label={t('home.hero.previous')}
            onClick={() => go(current - 1)}
          >
            <Icon name="chevronLeft" size={20} />
          </button>
          <span className="hero-dots" aria-hidden="true">
            {slides.map((slide, i) => (
              <span key={slide.code} className={i === current ? 'hero-dot is-current' : 'hero-dot'} />
            ))}
          </span>
          <button
            type="button"
            className="icon-btn hero-btn"
            aria-label={t('home.hero.next')}
            onClick={() => go(current + 1)}
          >
            <Icon name="chevronRight" size={20} />
          </button>
        </div>
      )}
    </section>
  );
}
