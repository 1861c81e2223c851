/**
 * Create or edit a bonus / promotion code: texts in th, la and en, the amounts in baht, the
 * rules, the validity window, the banners (image upload + HTML per language) and, for a bonus,
 * its place in the players' list (sort order, its bounds checked before sending), with the
 * player's card and modal previewed beside the form. A refusal naming a field shows beside that
 * field.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from '@/components/ui/Field';
import { ApiError } from '@/lib/errors';
import { useVariantUnit } from '@/lib/member-currency';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ImageUpload } from '../../components/ImageUpload';
import { boApi } from '../../lib/api';
import { useBoErrorText } from '../../lib/errors';
import { BonusPreview } from './BonusPreview';
import { LANGS, SORT_ORDER_MAX, bodyOf, draftOf, emptyDraft, sortOrderOf, type Bonus, type Draft, type Kind, type Lang, type Texts } from './form';

export const PROMOTIONS = ['bo', 'promotions'];
const FIELDS = [
  'code',
  'name',
  'description',
  'type',
  'percent',
  'fixedAmount',
  'maxAmount',
  'minDeposit',
  'maxReceived',
  'turnoverMultiplier',
  'percentFail',
  'totalLimit',
  'validFrom',
  'validUntil',
  'banners',
  'sortOrder',
  'currency',
] as const;
type Field = (typeof FIELDS)[number];

/** The form field a refusal names (`banners.0.image` → banners), if any. */
function fieldOf(error: unknown): Field | null {
  if (!(error instanceof ApiError) || !error.field) return null;
  const head = error.field.replace(/^body\./, '').split('.')[0] ?? '';
  return (FIELDS as readonly string[]).includes(head) ? (head as Field) : null;
}

export function BonusDialog({ bonus, kind, onClose }: { bonus: Bonus | null; kind: Kind; onClose: () => void }) {
  const { t } = useTranslation();
  const unit = useVariantUnit();
  const formId = useId();
  const queryClient = useQueryClient();
  const errorText = useBoErrorText();
  const [draft, setDraft] = useState<Draft>(() => (bonus ? draftOf(bonus) : emptyDraft(kind)));
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const setText = (key: 'name' | 'description', lang: Lang, value: string) => setDraft((d) => ({ ...d, [key]: { ...d[key], [lang]: value } }));

  const save = useMutation({
    mutationFn: async () => {
      const { code, kind: k, ...fields } = bodyOf(draft);
      if (bonus) return boApi.patch('/api/backoffice/promotions/{bonus_id}', fields, { params: { bonus_id: bonus.id } });
      return boApi.post('/api/backoffice/promotions', { code, kind: k, ...fields });
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: PROMOTIONS });
      void queryClient.invalidateQueries({ queryKey: ['bo', 'audit'] });
      onClose();
    },
  });
  const field = fieldOf(save.error);
  const errorAt = (name: Field): ReactNode => (field === name ? errorText(save.error) : undefined);
  const isPromotion = draft.kind === 'promotion';
  // Checked here as well as on the server, so that the bounds are said before anything is sent;
  // once a save was tried, the message follows the typing.
  const [tried, setTried] = useState(false);
  const sortInvalid = !isPromotion && sortOrderOf(draft.sortOrder) === null;
  const bound = SORT_ORDER_MAX.toLocaleString('en-US');
  const sortError = tried && sortInvalid ? t('bo.promotions.sortOrderInvalid', { min: `-${bound}`, max: bound }) : errorAt('sortOrder');
  const attempt = () => {
    setTried(true);
    if (!sortInvalid) save.mutate();
    else save.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    attempt();
  };
  const codeField = (
    <TextField
      label={t(isPromotion ? 'bo.promotions.promoCode' : 'bo.promotions.code')}
      hint={t('bo.promotions.codeHint')}
      maxLength={40}
      disabled={bonus !== null}
      value={draft.code}
      error={errorAt('code')}
      onChange={(event) => set('code', event.target.value.toUpperCase())}
    />
  );

  return (
    <ConfirmDialog
      open
      wide
      title={t(bonus ? 'bo.promotions.editTitle' : isPromotion ? 'bo.promotions.addCodeTitle' : 'bo.promotions.addBonusTitle')}
      confirm={t('common.save')}
      pending={save.isPending}
      error={field ? null : save.error}
      formId={formId}
      onConfirm={attempt}
      onClose={onClose}
    >
      <div className="bo-promo-editor">
        <form id={formId} className="bo-form" onSubmit={submit} noValidate>
          {isPromotion ? (
            codeField
          ) : (
            <div className="bo-form-row">
              {codeField}
              <TextField
                label={t('bo.promotions.sortOrder')}
                hint={t('bo.promotions.sortOrderHint')}
                type="number"
                step={1}
                min={-SORT_ORDER_MAX}
                max={SORT_ORDER_MAX}
                value={draft.sortOrder}
                error={sortError}
                onChange={(event) => set('sortOrder', event.target.value)}
              />
            </div>
          )}
          <TextsFieldset legend={t('bo.promotions.name')} value={draft.name} error={errorAt('name')} onChange={(lang, value) => setText('name', lang, value)} />
          <TextsFieldset legend={t('bo.promotions.description')} value={draft.description} error={errorAt('description')} onChange={(lang, value) => setText('description', lang, value)} />
          <div className="bo-form-row">
            <SelectField label={t('bo.promotions.currency')} hint={t('bo.promotions.currencyHint')} value={draft.currency} error={errorAt('currency')} onChange={(event) => set('currency', event.target.value as Draft['currency'])}>
              {(['THB', 'LAK'] as const).map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </SelectField>
          </div>
          <div className="bo-form-row">
            <SelectField label={t('bo.promotions.type')} hint={t('bo.promotions.typeHint')} value={draft.type} error={errorAt('type')} onChange={(event) => set('type', event.target.value as Draft['type'])}>
              {(['limit', 'day', 'week'] as const).map((value) => (
                <option key={value} value={value}>
                  {t(`bo.promotions.typeName.${value}`)}
                </option>
              ))}
            </SelectField>
            <TextField label={t('bo.promotions.maxReceived')} hint={t(isPromotion ? 'bo.promotions.oncePerMember' : 'bo.promotions.maxReceivedHint')} inputMode="numeric" value={draft.maxReceived} error={errorAt('maxReceived')} onChange={(event) => set('maxReceived', event.target.value)} />
          </div>
          <fieldset className="bo-fieldset">
            <legend>{t('bo.promotions.amount')}</legend>
            <div className="bo-row-actions" role="radiogroup" aria-label={t('bo.promotions.amount')}>
              {(['percent', 'fixed'] as const).map((mode) => (
                <label key={mode} className="bo-radio">
                  <input type="radio" name={`${formId}-mode`} checked={draft.mode === mode} onChange={() => set('mode', mode)} />
                  {t(`bo.promotions.mode.${mode}`)}
                </label>
              ))}
            </div>
            <div className="bo-form-row">
              {draft.mode === 'percent' ? (
                <>
                  <TextField label={t('bo.promotions.percent')} inputMode="numeric" value={draft.percent} error={errorAt('percent')} onChange={(event) => set('percent', event.target.value)} />
                  <TextField label={t('bo.promotions.maxAmount', { unit })} inputMode="decimal" value={draft.maxAmount} error={errorAt('maxAmount')} onChange={(event) => set('maxAmount', event.target.value)} />
                </>
              ) : (
                // The fixed amount is sent as its own maximum (form.ts): its refusals show here.
                <TextField label={t('bo.promotions.fixedAmount', { unit })} inputMode="decimal" value={draft.fixedAmount} error={errorAt('fixedAmount') ?? errorAt('maxAmount')} onChange={(event) => set('fixedAmount', event.target.value)} />
              )}
            </div>
            <div className="bo-form-row">
              <TextField label={t('bo.promotions.minDeposit', { unit })} hint={t('bo.promotions.minDepositHint')} inputMode="decimal" value={draft.minDeposit} error={errorAt('minDeposit')} onChange={(event) => set('minDeposit', event.target.value)} />
              <TextField label={t('bo.promotions.turnoverMultiplier')} inputMode="numeric" value={draft.turnoverMultiplier} error={errorAt('turnoverMultiplier')} onChange={(event) => set('turnoverMultiplier', event.target.value)} />
            </div>
            <div className="bo-form-row">
              <TextField label={t('bo.promotions.percentFail')} hint={t('bo.promotions.percentFailHint')} inputMode="numeric" value={draft.percentFail} error={errorAt('percentFail')} onChange={(event) => set('percentFail', event.target.value)} />
              {isPromotion && (
                <TextField label={t('bo.promotions.totalLimit')} hint={t('bo.promotions.totalLimitHint')} inputMode="numeric" value={draft.totalLimit} error={errorAt('totalLimit')} onChange={(event) => set('totalLimit', event.target.value)} />
              )}
            </div>
          </fieldset>
          <div className="bo-form-row">
            <TextField label={t('bo.promotions.validFrom')} type="datetime-local" value={draft.validFrom} error={errorAt('validFrom')} onChange={(event) => set('validFrom', event.target.value)} />
            <TextField label={t('bo.promotions.validUntil')} type="datetime-local" value={draft.validUntil} error={errorAt('validUntil')} onChange={(event) => set('validUntil', event.target.value)} />
          </div>
          <BannersFieldset draft={draft} setDraft={setDraft} error={errorAt('banners')} />
        </form>
        <BonusPreview draft={draft} />
      </div>
    </ConfirmDialog>
  );
}

function TextsFieldset({ legend, value, error, onChange }: { legend: string; value: Texts; error?: ReactNode; onChange: (lang: Lang, value: string) => void }) {
  const { t } = useTranslation();
  return (
    <fieldset className="bo-fieldset">
      <legend>{legend}</legend>
      <div className="bo-form-row bo-form-row-3">
        {LANGS.map((lang) => (
          <TextField
            key={lang}
            label={`${legend} (${t(`bo.promotions.lang.${lang}`)})`}
            lang={lang}
            maxLength={1000}
            value={value[lang]}
            error={lang === 'th' ? error : undefined}
            onChange={(event) => onChange(lang, event.target.value)}
          />
        ))}
      </div>
    </fieldset>
  );
}

function BannersFieldset({ draft, setDraft, error }: { draft: Draft; setDraft: (f: (d: Draft) => Draft) => void; error?: ReactNode }) {
  const { t } = useTranslation();
  const change = (index: number, patch: (b: Draft['banners'][number]) => Draft['banners'][number]) =>
    setDraft((d) => ({ ...d, banners: d.banners.map((b, i) => (i === index ? patch(b) : b)) }));
  const empty = { th: '', la: '', en: '' };
  return (
    <fieldset className="bo-fieldset">
      <legend>{t('bo.promotions.banners')}</legend>
      {draft.banners.map((banner, index) => (
        <div key={index} className="bo-promo-banner" role="group" aria-label={t('bo.promotions.bannerN', { n: index + 1 })}>
          <div className="bo-form-row">
            <TextField label={t('bo.promotions.bannerImage')} value={banner.image} onChange={(event) => change(index, (b) => ({ ...b, image: event.target.value }))} />
            <ImageUpload
              label={t('bo.promotions.uploadImage', { n: index + 1 })}
              onUploaded={(url) => change(index, (b) => ({ ...b, image: url }))}
            />
          </div>
          {LANGS.map((lang) => (
            <label key={lang} className="field">
              <span className="field-label">{t('bo.promotions.bannerHtml', { lang: t(`bo.promotions.lang.${lang}`) })}</span>
              <textarea className="input bo-textarea" lang={lang} rows={2} maxLength={4000} value={banner.html[lang]} onChange={(event) => change(index, (b) => ({ ...b, html: { ...b.html, [lang]: event.target.value } }))} />
            </label>
          ))}
          <button type="button" className="bo-btn bo-btn-sm" onClick={() => setDraft((d) => ({ ...d, banners: d.banners.filter((_, i) => i !== index) }))}>
            {t('bo.promotions.removeBanner')}
          </button>
        </div>
      ))}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {draft.banners.length < 10 && (
        <button type="button" className="bo-btn bo-btn-sm" onClick={() => setDraft((d) => ({ ...d, banners: [...d.banners, { image: '', html: { ...empty }, title: { ...empty } }] }))}>
          {t('bo.promotions.addBanner')}
        </button>
      )}
    </fieldset>
  );
}
