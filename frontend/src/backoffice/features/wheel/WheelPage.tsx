/**
 * The prize wheel editor (promotions.manage): the wheel's name, its slices (labels in th/la/en,
 * colours, prize, weight; added, moved, removed; the prize's name and HTML description per
 * language in a row each slice opens, the HTML previewed as the server sanitises it) and the
 * coin rules, saved in one change after a confirmation. Each slice's probability and the
 * expected payout per spin follow the weights as the manager types (odds.ts), then the server's
 * figures once saved; a preview draws the wheel as players see it. A refused save names the
 * field, shown next to it (a refused prize text opens its slice's row); nothing is changed then.
 */
import './wheel.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '@/api/schema.gen';
import { Icon } from '@/components/ui/Icon';
import { WheelCanvas } from '@/components/wheel/WheelCanvas';
import { ApiError } from '@/lib/errors';
import { useVariantUnit, variantCurrency } from '@/lib/member-currency';
import { formatMoney, parseAmount } from '@/lib/money';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LocalizedEditor } from '../../components/SettingsGroupEditor';
import { boApi } from '../../lib/api';
import { useBoErrorText } from '../../lib/errors';
import { parseWeight, percent, wheelOdds, type PrizeType } from './odds';

type Wheel = components['schemas']['WheelEditorOut'];
type SliceBody = components['schemas']['WheelSliceIn'];
type Lang = 'th' | 'la' | 'en';
type Texts = Record<Lang, string>;
const LANGS: readonly Lang[] = ['th', 'la', 'en'];
const WHEEL = ['bo', 'wheel'];
const PRIZES: readonly PrizeType[] = ['none', 'credit', 'item'];
// What the server keeps of a slice's texts (pao.promotions.content: LABEL_MAX, NAME_MAX, HTML_MAX).
const LABEL_MAX = 60;
const PRIZE_NAME_MAX = 120;
const HTML_MAX = 4000;
// The slice table's columns: a slice's details row spans them all.
const COLUMNS = 10;

type DraftSlice = {
  key: string;
  id: number | null;
  code: string | null;
  label: Texts;
  bgColor: string;
  textColor: string;
  prizeType: PrizeType;
  prizeAmount: string;
  weight: string;
  prizeName: Texts;
  htmlDescription: Texts;
};
type Draft = {
  name: Texts;
  slices: DraftSlice[];
  spinEnabled: boolean;
  spinDepositPerCoin: string;
  couponValidDays: string;
};

const texts = (value: Record<string, string> | undefined): Texts => ({ th: value?.th ?? '', la: value?.la ?? '', en: value?.en ?? '' });
let nextKey = 0;
const newKey = () => `new-${++nextKey}`;

/** A colour the picker can show (#rrggbb) from #rgb or #rrggbb. */
function sixDigits(colour: string): string {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(colour);
  return short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}` : colour;
}

function draftOf(wheel: Wheel): Draft {
  return {
    name: texts(wheel.name),
    slices: wheel.slices.map((s) => ({
      key: `id-${s.id}`,
      id: s.id,
      code: s.code,
      label: texts(s.label),
      bgColor: s.bgColor,
      textColor: s.textColor,
      prizeType: s.prizeType,
      prizeAmount: String(s.prizeAmount),
      weight: String(s.weight),
      prizeName: texts(s.prizeName),
      htmlDescription: texts(s.htmlDescription),
    })),
    spinEnabled: wheel.coinRules.spinEnabled,
    // Per currency on the wire: this screen edits the variant's currency's value.
    spinDepositPerCoin: String(wheel.coinRules.spinDepositPerCoin[variantCurrency()] ?? ''),
    couponValidDays: String(wheel.coinRules.couponValidDays),
  };
}

function bodyOf(draft: Draft) {
  return {
    name: draft.name,
    slices: draft.slices.map(
      (s): SliceBody => ({
        id: s.id,
        label: s.label,
        bgColor: s.bgColor,
        textColor: s.textColor,
        weight: parseWeight(s.weight) ?? Number(s.weight),
        prizeType: s.prizeType,
        prizeAmount: s.prizeType === 'none' ? 0 : (parseAmount(s.prizeAmount) ?? Number(s.prizeAmount)),
        prizeName: s.prizeName,
        htmlDescription: s.htmlDescription,
      }),
    ),
    coinRules: {
      spinEnabled: draft.spinEnabled,
      spinDepositPerCoin: {
        [variantCurrency()]: parseAmount(draft.spinDepositPerCoin) ?? Number(draft.spinDepositPerCoin),
      },
      couponValidDays: Number(draft.couponValidDays),
    },
  };
}

export default function WheelPage() {
  const { t, i18n } = useTranslation();
  const unit = useVariantUnit();
  const errorText = useBoErrorText();
  const queryClient = useQueryClient();
  const wheel = useQuery({ queryKey: WHEEL, queryFn: ({ signal }) => boApi.get('/api/backoffice/wheel', { params: { currency: variantCurrency() }, signal }) });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [saved, setSaved] = useState(false);
  // The slices (by key) whose prize details row is open.
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const detailsId = useId();
  const loaded = useRef<Wheel | null>(null);

  useEffect(() => {
    if (wheel.data && wheel.data !== loaded.current) {
      loaded.current = wheel.data;
      setDraft(draftOf(wheel.data));
    }
  }, [wheel.data]);

  const save = useMutation({
    mutationFn: (body: ReturnType<typeof bodyOf>) => boApi.put('/api/backoffice/wheel', body, { params: { currency: variantCurrency() } }),
    onSuccess: (data) => {
      queryClient.setQueryData(WHEEL, data);
      void queryClient.invalidateQueries({ queryKey: ['bo', 'audit'] });
      setConfirming(false);
      setSaved(true);
    },
    onError: () => setConfirming(false),
  });

  const live = useMemo(
    () =>
      wheelOdds(
        (draft?.slices ?? []).map((s) => ({
          weight: parseWeight(s.weight) ?? 0,
          prizeType: s.prizeType,
          prizeAmount: s.prizeType === 'none' ? 0 : (parseAmount(s.prizeAmount) ?? 0),
        })),
      ),
    [draft],
  );

  if (wheel.isError) {
    return (
      <section className="bo-page">
        <h1>{t('bo.wheel.title')}</h1>
        <p className="bo-error" role="alert">
          {errorText(wheel.error)}
        </p>
      </section>
    );
  }
  if (!draft || !wheel.data) return <section className="bo-page" aria-busy="true" />;

  const limits = { min: wheel.data.minSlices, max: wheel.data.maxSlices };
  const fieldError = save.error instanceof ApiError ? save.error.field : undefined;
  const errorAt = (field: string) => (fieldError === field ? errorText(save.error) : undefined);
  // A refusal of a text names the text or one language of it (slices.0.prizeName.en).
  const errorIn = (field: string) => (fieldError === field || fieldError?.startsWith(`${field}.`) ? errorText(save.error) : undefined);
  const toggle = (key: string) =>
    setOpened((keys) => {
      const next = new Set(keys);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const lang = (LANGS as readonly string[]).includes(i18n.language) ? (i18n.language as Lang) : 'en';
  const edit = (change: (d: Draft) => Draft) => {
    setSaved(false);
    setDraft((d) => (d ? change(d) : d));
  };
  const editSlice = (index: number, change: Partial<DraftSlice>) =>
    edit((d) => ({ ...d, slices: d.slices.map((s, i) => (i === index ? { ...s, ...change } : s)) }));
  const move = (index: number, by: number) =>
    edit((d) => {
      const slices = [...d.slices];
      const [moved] = slices.splice(index, 1);
      if (!moved) return d;
      slices.splice(index + by, 0, moved);
      return { ...d, slices };
    });
  const add = () =>
    edit((d) => ({
      ...d,
      slices: [
        ...d.slices,
        { key: newKey(), id: null, code: null, label: texts(undefined), bgColor: '#ffd35c', textColor: '#111827', prizeType: 'none', prizeAmount: '0', weight: '1', prizeName: texts(undefined), htmlDescription: texts(undefined) },
      ],
    }));
  const zeroWeights = live.totalWeight === 0;
  const savedFigures = !saved ? null : wheel.data;
  const preview = draft.slices.map((s) => ({ code: s.key, label: s.label[lang] || s.label.en, bgColor: s.bgColor, textColor: s.textColor }));

  return (
    <section className="bo-page" aria-labelledby="bo-wheel-title">
      <header className="bo-page-head">
        <h1 id="bo-wheel-title">{t('bo.wheel.title')}</h1>
      </header>
      <p className="bo-muted">{t('bo.wheel.intro')}</p>

      <div className="bo-wheel-top">
        <fieldset className="bo-panel bo-wheel-name">
          <legend className="bo-panel-title">{t('bo.wheel.name')}</legend>
          {LANGS.map((l) => (
            <Input key={l} label={t('bo.wheel.nameIn', { lang: t(`bo.wheel.lang.${l}`) })} value={draft.name[l]} error={errorAt(`name.${l}`) ?? errorAt('name')} onChange={(v) => edit((d) => ({ ...d, name: { ...d.name, [l]: v } }))} />
          ))}
        </fieldset>
        <fieldset className="bo-panel bo-wheel-rules">
          <legend className="bo-panel-title">{t('bo.wheel.coinRules')}</legend>
          <label className="bo-wheel-check">
            <input type="checkbox" checked={draft.spinEnabled} onChange={(e) => edit((d) => ({ ...d, spinEnabled: e.target.checked }))} />
            {t('bo.wheel.spinEnabled')}
          </label>
          <Input label={t('bo.wheel.perCoin', { unit })} inputMode="decimal" value={draft.spinDepositPerCoin} error={errorAt('spinDepositPerCoin')} onChange={(v) => edit((d) => ({ ...d, spinDepositPerCoin: v }))} />
          <Input label={t('bo.wheel.validDays')} inputMode="numeric" value={draft.couponValidDays} error={errorAt('couponValidDays')} onChange={(v) => edit((d) => ({ ...d, couponValidDays: v }))} />
        </fieldset>
        <figure className="bo-panel bo-wheel-preview">
          {preview.length > 0 ? <WheelCanvas slices={preview} angle={0} size={200} label={t('bo.wheel.preview')} /> : null}
          <figcaption className="bo-muted">{t('bo.wheel.preview')}</figcaption>
        </figure>
      </div>

      <h2 id="bo-wheel-slices" className="bo-panel-title">
        {t('bo.wheel.slices', limits)}
      </h2>
      <div className="bo-table-wrap">
        <table className="bo-table bo-table-compact bo-wheel-table" aria-labelledby="bo-wheel-slices">
          <thead>
            <tr>
              <th scope="col">#</th>
              {LANGS.map((l) => (
                <th key={l} scope="col">
                  {t('bo.wheel.label')} {l.toUpperCase()}
                </th>
              ))}
              <th scope="col">{t('bo.wheel.colours')}</th>
              <th scope="col">{t('bo.wheel.prize')}</th>
              <th scope="col">{t('bo.wheel.amount', { unit })}</th>
              <th scope="col">{t('bo.wheel.weight')}</th>
              <th scope="col">{t('bo.wheel.probability')}</th>
              <th scope="col">{t('bo.table.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {draft.slices.map((s, i) => {
              const n = i + 1;
              const at = `slices.${i}`;
              const weightBad = parseWeight(s.weight) === null;
              const nameError = errorIn(`${at}.prizeName`);
              const descriptionError = errorIn(`${at}.htmlDescription`);
              // A refused text opens its row, so that the message shows beside it.
              const open = opened.has(s.key) || nameError !== undefined || descriptionError !== undefined;
              const details = `${detailsId}-${i}`;
              return (
                <Fragment key={s.key}>
                  <tr>
                    <td className="bo-num">
                      <button type="button" className="bo-wheel-toggle" aria-expanded={open} aria-controls={open ? details : undefined} aria-label={t('bo.wheel.detailsOf', { n })} title={t('bo.wheel.detailsOf', { n })} onClick={() => toggle(s.key)}>
                        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} />
                        {n}
                      </button>
                    </td>
                    {LANGS.map((l) => (
                      <td key={l}>
                        <Input compact label={t('bo.wheel.labelOf', { n, lang: t(`bo.wheel.lang.${l}`) })} value={s.label[l]} maxLength={LABEL_MAX} error={errorAt(`${at}.label.${l}`) ?? (l === 'th' ? errorAt(`${at}.label`) : undefined)} onChange={(v) => editSlice(i, { label: { ...s.label, [l]: v } })} />
                      </td>
                    ))}
                    <td className="bo-nowrap">
                      <Input compact type="color" label={t('bo.wheel.bgOf', { n })} value={sixDigits(s.bgColor)} error={errorAt(`${at}.bgColor`)} onChange={(v) => editSlice(i, { bgColor: v })} />
                      <Input compact type="color" label={t('bo.wheel.textOf', { n })} value={sixDigits(s.textColor)} error={errorAt(`${at}.textColor`)} onChange={(v) => editSlice(i, { textColor: v })} />
                    </td>
                    <td>
                      <Select label={t('bo.wheel.prizeOf', { n })} value={s.prizeType} error={errorAt(`${at}.prizeType`)} onChange={(v) => editSlice(i, { prizeType: v as PrizeType, prizeAmount: v === 'none' ? '0' : s.prizeAmount })}>
                        {PRIZES.map((p) => (
                          <option key={p} value={p}>
                            {t(`bo.wheel.prizeType.${p}`)}
                          </option>
                        ))}
                      </Select>
                    </td>
                    <td>
                      <Input compact label={t('bo.wheel.amountOf', { n })} inputMode="decimal" disabled={s.prizeType === 'none'} value={s.prizeAmount} error={errorAt(`${at}.prizeAmount`)} onChange={(v) => editSlice(i, { prizeAmount: v })} />
                    </td>
                    <td>
                      <Input compact label={t('bo.wheel.weightOf', { n })} inputMode="numeric" value={s.weight} error={errorAt(`${at}.weight`) ?? (weightBad ? t('bo.wheel.weightHint') : undefined)} onChange={(v) => editSlice(i, { weight: v })} />
                    </td>
                    <td className="bo-num" aria-label={t('bo.wheel.probabilityOf', { n })}>
                      {percent(live.probabilities[i] ?? 0)}
                    </td>
                    <td className="bo-nowrap">
                      <div className="bo-row-actions" role="group" aria-label={t('bo.wheel.actionsOf', { n })}>
                        <button type="button" className="bo-btn bo-btn-sm" aria-label={t('bo.wheel.upOf', { n })} disabled={i === 0} onClick={() => move(i, -1)}>
                          ↑
                        </button>
                        <button type="button" className="bo-btn bo-btn-sm" aria-label={t('bo.wheel.downOf', { n })} disabled={i === draft.slices.length - 1} onClick={() => move(i, 1)}>
                          ↓
                        </button>
                        <button type="button" className="bo-btn bo-btn-sm" aria-label={t('bo.wheel.removeOf', { n })} disabled={draft.slices.length <= limits.min} onClick={() => edit((d) => ({ ...d, slices: d.slices.filter((_, j) => j !== i) }))}>
                          ✕
                        </button>
                      </div>
                      {errorAt(`${at}.id`) && <p className="field-error">{errorAt(`${at}.id`)}</p>}
                    </td>
                  </tr>
                  {open && (
                    <tr id={details} className="bo-wheel-details">
                      <td colSpan={COLUMNS}>
                        <div className="bo-wheel-prize">
                          <fieldset className="bo-settings-set">
                            <legend>{t('bo.wheel.prizeNameOf', { n })}</legend>
                            <p className="bo-muted">{t('bo.wheel.prizeNameHint')}</p>
                            <LocalizedEditor name={t('bo.wheel.prizeNameOf', { n })} html={false} maxLength={PRIZE_NAME_MAX} value={s.prizeName} onChange={(v) => editSlice(i, { prizeName: texts(v) })} />
                            {nameError && <p className="field-error" role="alert">{nameError}</p>}
                          </fieldset>
                          <fieldset className="bo-settings-set">
                            <legend>{t('bo.wheel.descriptionOf', { n })}</legend>
                            <p className="bo-muted">{t('bo.wheel.descriptionHint')}</p>
                            <LocalizedEditor name={t('bo.wheel.descriptionOf', { n })} html maxLength={HTML_MAX} value={s.htmlDescription} onChange={(v) => editSlice(i, { htmlDescription: texts(v) })} />
                            {descriptionError && <p className="field-error" role="alert">{descriptionError}</p>}
                          </fieldset>
                        </div>
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="bo-wheel-summary">
        <button type="button" className="bo-btn" disabled={draft.slices.length >= limits.max} onClick={add}>
          {t('bo.wheel.add')}
        </button>
        <dl className="bo-wheel-figures" aria-live="polite">
          <div>
            <dt>{t('bo.wheel.totalWeight')}</dt>
            <dd>{live.totalWeight}</dd>
          </div>
          <div>
            <dt>{t('bo.wheel.expected', { unit })}</dt>
            <dd data-testid="expected-payout">{formatMoney(live.expectedPayout, variantCurrency())}</dd>
          </div>
          <div>
            <dt>{t('bo.wheel.items')}</dt>
            <dd>{live.itemPrizes.length === 0 ? '—' : live.itemPrizes.map((i) => `${draft.slices[i]?.label[lang] || i + 1} (${percent(live.probabilities[i] ?? 0)})`).join(', ')}</dd>
          </div>
        </dl>
      </div>
      {zeroWeights && (
        <p className="bo-error" role="alert">
          {t('bo.wheel.zeroWeights')}
        </p>
      )}
      {save.error ? (
        <p className="bo-error" role="alert">
          {errorText(save.error)}
        </p>
      ) : null}
      {savedFigures && (
        <p className="bo-notice" role="status">
          {t('bo.wheel.saved', { payout: formatMoney(savedFigures.expectedPayout, variantCurrency()), unit })}
        </p>
      )}
      <div className="bo-wheel-actions">
        <button type="button" className="bo-btn" disabled={save.isPending} onClick={() => wheel.data && (save.reset(), setSaved(false), setDraft(draftOf(wheel.data)))}>
          {t('bo.wheel.undo')}
        </button>
        <button type="button" className="bo-btn bo-btn-primary" disabled={save.isPending} onClick={() => setConfirming(true)}>
          {t('bo.wheel.save')}
        </button>
      </div>
      <ConfirmDialog open={confirming} title={t('bo.wheel.confirmTitle')} confirm={t('bo.wheel.save')} pending={save.isPending} error={null} onConfirm={() => save.mutate(bodyOf(draft))} onClose={() => setConfirming(false)}>
        <p>{t('bo.wheel.confirmText', { count: draft.slices.length, payout: formatMoney(live.expectedPayout, variantCurrency()), unit })}</p>
      </ConfirmDialog>
    </section>
  );
}

type InputProps = {
  label: string;
  value: string;
  error?: string;
  compact?: boolean;
  type?: string;
  inputMode?: 'decimal' | 'numeric';
  disabled?: boolean;
  maxLength?: number;
  onChange: (value: string) => void;
};

/** A labelled input with its error under it (the label is hidden in the table's cells). */
function Input({ label, value, error, compact, onChange, type = 'text', ...rest }: InputProps) {
  const id = useId();
  return (
    <div className={compact ? 'bo-wheel-cell' : 'bo-wheel-field'}>
      <label htmlFor={id} className={compact ? 'visually-hidden' : undefined}>
        {label}
      </label>
      <input id={id} className="bo-input bo-input-sm" type={type} value={value} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} onChange={(e) => onChange(e.target.value)} {...rest} />
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

function Select({ label, value, error, onChange, children }: { label: string; value: string; error?: string; onChange: (v: string) => void; children: ReactNode }) {
  const id = useId();
  return (
    <div className="bo-wheel-cell">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <select id={id} className="bo-input bo-input-sm" value={value} aria-invalid={error ? true : undefined} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
