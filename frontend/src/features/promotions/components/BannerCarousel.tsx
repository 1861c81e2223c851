/**
 * Banner carousel of the bonus, invite and refund modals (spec §9: cards 300×211, spacing 330):
 * a horizontally scrolling, snapping list; each banner is an image (its alt text the banner's
 * title, else its position) with sanitised HTML below.
 */
import { useTranslation } from 'react-i18next';
import { SafeHtml } from '@/components/ui/SafeHtml';
import { SITE_OR_WEB, safeUrl } from '@/lib/safe-url';

/** `title`: the operator's short text of the banner, in the UI's language (its alt text). */
export type Banner = { image: string; html: string; title?: string };

export function BannerCarousel({ banners, label }: { banners: readonly Banner[]; label: string }) {
  const { t } = useTranslation();
  if (banners.length === 0) return null;
  return (
    <section className="promo-carousel" aria-label={label}>
      {/* It scrolls sideways and holds nothing focusable: focusable itself, so that keyboard
          users can scroll it too (axe scrollable-region-focusable). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scroll region with nothing focusable in it must take the focus itself (WCAG 2.1.1) */}
      <ul tabIndex={0} aria-label={label}>
        {banners.map((banner, index) => (
          <li key={`${banner.image}-${index}`} className="promo-banner">
            <img
              src={safeUrl(banner.image, SITE_OR_WEB) || undefined}
              alt={banner.title || t('promotions.bannerAlt', { index: index + 1, total: banners.length })}
              width={300}
              height={211}
              loading="lazy"
            />
            {banner.html && <SafeHtml html={banner.html} className="prose small" />}
          </li>
        ))}
      </ul>
    </section>
  );
}
