/**
 * What players will see: the player app's own bonus card and the body of its bonus modal
 * (features/promotions BonusCard / BonusDetails, presentational, no player calls), filled from
 * the form as it stands, in the language picked here: the operator's texts and the player
 * app's own words (the card's labels, the receive button) alike, through a copy of the i18n
 * instance set to that language, so the back office's own language stays as it is.
 */
import { useEffect, useMemo, useState } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { BonusCard } from '@/features/promotions/components/BonusCard';
import { BonusDetails } from '@/features/promotions/components/BonusDetails';
import { LANGS, type Draft, type Lang } from './form';

const pick = (texts: Record<Lang, string>, lang: Lang): string => texts[lang] || texts.th || texts.en || texts.la || '';
const amount = (value: string): number => (Number.isFinite(Number(value)) ? Number(value) : 0);

export function BonusPreview({ draft }: { draft: Draft }) {
  const { t, i18n } = useTranslation();
  const [lang, setLang] = useState<Lang>('th');
  // Shares the loaded strings; its language is the preview's only.
  const preview = useMemo(() => i18n.cloneInstance({ lng: lang }), [i18n, lang]);
  // Shown once the preview's language has its strings (loaded on first use).
  const [loaded, setLoaded] = useState<Lang | null>(null);
  useEffect(() => {
    let live = true;
    void preview.changeLanguage(lang).then(() => live && setLoaded(lang));
    return () => {
      live = false;
    };
  }, [preview, lang]);
  const banners = draft.banners
    .filter((b) => b.image)
    .map((b) => ({ image: b.image, html: pick(b.html, lang), title: pick(b.title, lang) }));
  const name = pick(draft.name, lang) || draft.code || '—';
  return (
    <section className="bo-promo-preview" aria-label={t('bo.promotions.preview')}>
      <div className="row-between">
        <h3 className="bo-promo-preview-title">{t('bo.promotions.preview')}</h3>
        <div role="group" aria-label={t('bo.promotions.previewLanguage')} className="bo-row-actions">
          {LANGS.map((code) => (
            <button key={code} type="button" className="bo-btn bo-btn-sm" aria-pressed={lang === code} onClick={() => setLang(code)}>
              {t(`bo.promotions.lang.${code}`)}
            </button>
          ))}
        </div>
      </div>
      {loaded === lang && (
        <I18nextProvider i18n={preview}>
          <PreviewPhone draft={draft} lang={lang} banners={banners} name={name} label={t('bo.promotions.previewModal')} />
        </I18nextProvider>
      )}
    </section>
  );
}

type Banner = { image: string; html: string; title: string };

/** The player's card and modal, in the preview's language (its i18n instance's). */
function PreviewPhone({ draft, lang, banners, name, label }: { draft: Draft; lang: Lang; banners: Banner[]; name: string; label: string }) {
  const { t } = useTranslation();
  return (
    <div className="bo-promo-phone" lang={lang}>
      {draft.kind === 'bonus' && (
        <ul className="promo-cards">
          <li>
            <BonusCard name={name} image={banners[0]?.image} state="clickable" />
          </li>
        </ul>
      )}
      <div className="modal bo-promo-modal" aria-label={label} role="group">
        <div className="modal-head">
          <p className="modal-title">{name}</p>
        </div>
        <div className="modal-body">
          <BonusDetails
            bonus={{
              description: pick(draft.description, lang),
              banners,
              turnoverMultiplier: amount(draft.turnoverMultiplier),
              minDeposit: amount(draft.minDeposit),
              maxReceived: amount(draft.maxReceived),
              type: draft.type,
            }}
          />
        </div>
        <div className="modal-foot">
          <button type="button" className="btn btn-primary btn-block" disabled>
            {t('promotions.bonus.receive')}
          </button>
        </div>
      </div>
    </div>
  );
}
