/**
 * One group of operator settings (content, refund and invite rules, site settings) as a form,
 * with its history. The server says which settings the group holds and how each is edited
 * (`fields[].kind`), so the screens only name the group's path. Texts are edited per language
 * side by side; HTML shows a live preview of what players get (the server's sanitiser, then the
 * players' own SafeHtml). A save sends only what changed, all or nothing; a refusal is shown next
 * to the field it names. The history lists who changed what and when, each value as its editor
 * shows it (history-values.ts: a line per language, banners summed up, money in baht); restoring
 * the values from before a change asks first and is itself a new version.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '@/api/schema.gen';
import { SafeHtml } from '@/components/ui/SafeHtml';
import { ApiError } from '@/lib/errors';
import { formatDateTime } from '@/lib/dates';
import { env } from '@/lib/env';
import { boApi } from '../lib/api';
import { useBoErrorText } from '../lib/errors';
import { ConfirmDialog } from './ConfirmDialog';
import { describeChange, type Image, type ItemChange, type Kind, type Lang, type Part } from './history-values';
import { ImageUpload } from './ImageUpload';

export type GroupPath = '/api/backoffice/content' | '/api/backoffice/content/rules' | '/api/backoffice/settings';
type FieldOut = components['schemas']['FieldOut'];
type Version = components['schemas']['VersionOut'];
type Values = Record<string, unknown>;
type Localized = { th?: string; la?: string; en?: string };
type Banner = { image: string; html: Localized; title: Localized };
const LANGS = ['th', 'la', 'en'] as const;

const historyPath = (path: GroupPath) => `${path}/history` as `${GroupPath}/history`;
const revertPath = (path: GroupPath) => `${path}/history/{change_set}/revert` as `${GroupPath}/history/{change_set}/revert`;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function SettingsGroupEditor({ path, title }: { path: GroupPath; title: string }) {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const queryClient = useQueryClient();
  const group = useQuery({ queryKey: ['bo', 'settings', path], queryFn: ({ signal }) => boApi.get(path, { signal }) });
  // What the form changed, over the values in force (which a save or restore refreshes).
  const [edits, setEdits] = useState<Values>({});
  const draft: Values | null = group.data ? { ...group.data.values, ...edits } : null;
  const [done, setDone] = useState(false);
  const [closing, setClosing] = useState(false);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['bo', 'settings', path] });
    void queryClient.invalidateQueries({ queryKey: ['bo', 'settingsHistory', path] });
    void queryClient.invalidateQueries({ queryKey: ['bo', 'audit'] });
  };
  const changed = (): Values => {
    const saved = group.data?.values ?? {};
    return Object.fromEntries(Object.entries(draft ?? {}).filter(([key, value]) => !same(value, saved[key])));
  };
  const save = useMutation({
    mutationFn: () => boApi.put(path, { values: changed() }),
    onSuccess: () => {
      setDone(true);
      setClosing(false);
      setEdits({});
      refresh();
    },
  });
  const fieldError = (key: string): string | undefined => {
    const error = save.error;
    if (!(error instanceof ApiError) || !error.field) return undefined;
    return error.field === key || error.field.startsWith(`${key}.`) ? errorText(error) : undefined;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    // Closing the whole site asks first.
    if (changed().terminated === true) setClosing(true);
    else save.mutate();
  };
  const set = (key: string, value: unknown) => {
    setDone(false);
    setEdits((current) => ({ ...current, [key]: value }));
  };

  if (group.isError) {
    return (
      <p className="bo-error" role="alert">
        {errorText(group.error)}
      </p>
    );
  }
  if (!group.data || !draft) return <p className="bo-muted">{t('bo.loading')}</p>;
  const dirty = Object.keys(changed()).length > 0;
  const unplaced = save.error instanceof ApiError && save.error.field && group.data.fields.every((f) => !fieldError(f.key));
  return (
    <div className="bo-settings">
      <form className="bo-form bo-settings-form" onSubmit={submit} noValidate aria-label={title}>
        {group.data.fields.map((field) => (
          <FieldEditor
            key={field.key}
            field={field}
            value={draft[field.key]}
            error={fieldError(field.key)}
            errorAt={save.error instanceof ApiError ? save.error.field : undefined}
            onChange={(value) => set(field.key, value)}
          />
        ))}
        <div className="bo-settings-actions">
          <button type="submit" className="bo-btn bo-btn-primary" disabled={!dirty || save.isPending}>
            {t('bo.settingsEditor.save')}
          </button>
          <button type="button" className="bo-btn" disabled={!dirty || save.isPending} onClick={() => setEdits({})}>
            {t('bo.settingsEditor.reset')}
          </button>
          <span role="status" className="bo-muted">
            {done && !dirty ? t('bo.settingsEditor.saved') : ''}
          </span>
          {save.error && (!(save.error instanceof ApiError) || !save.error.field || unplaced) ? (
            <p className="bo-error" role="alert">
              {errorText(save.error)}
            </p>
          ) : null}
        </div>
      </form>
      <History
        path={path}
        fields={group.data.fields}
        onRestored={() => {
          setEdits({});
          refresh();
        }}
      />
      {closing && (
        <ConfirmDialog open title={t('bo.settingsEditor.closeTitle')} confirm={t('bo.settingsEditor.closeConfirm')} danger pending={save.isPending} error={save.error} onConfirm={() => save.mutate()} onClose={() => setClosing(false)}>
          <p>{t('bo.settingsEditor.closeText')}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function label(t: (key: never) => string, key: string): string {
  return t(`bo.settingsEditor.field.${key}` as never);
}

/** `error` is the save's refusal when it names this field; `errorAt` the exact path it names
 * (`withdrawMin.LAK`), so that a per-currency refusal shows at that currency's input. */
function FieldEditor({
  field,
  value,
  error,
  errorAt,
  onChange,
}: {
  field: FieldOut;
  value: unknown;
  error?: string;
  errorAt?: string | null;
  onChange: (value: unknown) => void;
}) {
  const { t } = useTranslation();
  const name = label(t, field.key);
  switch (field.kind) {
    case 'bool':
      return (
        <Box error={error}>
          <label className="bo-settings-check">
            <input type="checkbox" checked={value === true} onChange={(event) => onChange(event.target.checked)} aria-invalid={error ? true : undefined} />
            {name}
          </label>
        </Box>
      );
    case 'money': {
      // Per currency (ADR 0020): {THB, LAK} in major units, null = not set for that currency
      // (each setting says what unset means). A Lao server has baht and kip wallets.
      const amounts = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
      const currencies = env.lao ? (['THB', 'LAK'] as const) : (['THB'] as const);
      const parse = (text: string) => {
        if (text.trim() === '') return null;
        const n = Number(text);
        return Number.isNaN(n) ? text : n;
      };
      return (
        <>
          {currencies.map((code) => (
            <Input
              key={code}
              label={`${name} (${t(`common.currency.${code}`)})`}
              error={errorAt === `${field.key}.${code}` || errorAt === field.key ? error : undefined}
              type="number"
              step={0.01}
              value={amounts[code] === null || amounts[code] === undefined ? '' : String(amounts[code])}
              onChange={(text) => onChange({ ...amounts, [code]: parse(text) })}
            />
          ))}
        </>
      );
    }
    case 'int':
    case 'percentBp': {
      // Rates are basis points on the wire, percentages on screen (500 = 5 %).
      const shown = field.kind === 'percentBp' ? Number(value) / 100 : value;
      const parse = (text: string) => {
        if (text.trim() === '') return text;
        const n = Number(text);
        if (Number.isNaN(n)) return text;
        return field.kind === 'percentBp' ? Math.round(n * 100) : n;
      };
      const unit = field.kind === 'percentBp' ? ' (%)' : '';
      return (
        <Input label={`${name}${unit}`} error={error} type="number" step={field.kind === 'int' ? 1 : 0.01} value={String(shown ?? '')} onChange={(text) => onChange(parse(text))} />
      );
    }
    case 'choice':
      return (
        <Box error={error}>
          <Labelled text={name}>
            {(id) => (
              <select id={id} className="input select" value={String(value)} onChange={(event) => onChange(event.target.value)}>
                {(field.choices ?? []).map((choice) => (
                  <option key={choice} value={choice}>
                    {t(`bo.settingsEditor.choice.${choice}` as never)}
                  </option>
                ))}
              </select>
            )}
          </Labelled>
        </Box>
      );
    case 'html':
      return (
        <fieldset className="bo-settings-set">
          <legend>{name}</legend>
          <LocalizedEditor name={name} html value={(value ?? {}) as Localized} onChange={onChange} />
          <FieldMessage error={error} />
        </fieldset>
      );
    case 'htmlList':
    case 'textList':
      return (
        <ListEditor name={name} error={error} items={(value ?? []) as Localized[]} blank={{}} onChange={onChange}>
          {(item, n, update) => <LocalizedEditor name={`${name} ${n}`} html={field.kind === 'htmlList'} value={item} onChange={update} />}
        </ListEditor>
      );
    case 'banners':
      return (
        <ListEditor name={name} error={error} items={(value ?? []) as Banner[]} blank={{ image: '', html: {}, title: {} }} onChange={onChange}>
          {(banner, n, update) => (
            <>
              <div className="bo-form-row">
                {/* An address on this site (an uploaded image) or on the web: text, not type=url. */}
                <Input label={`${t('bo.settingsEditor.image')} ${n}`} type="text" value={banner.image} onChange={(image) => update({ ...banner, image })} />
                <ImageUpload label={t('bo.settingsEditor.uploadImage', { n })} onUploaded={(image) => update({ ...banner, image })} />
              </div>
              <LocalizedEditor name={`${t('bo.settingsEditor.bannerTitle')} ${n}`} html={false} value={banner.title} onChange={(title) => update({ ...banner, title })} />
              <LocalizedEditor name={`${t('bo.settingsEditor.bannerHtml')} ${n}`} html value={banner.html} onChange={(html) => update({ ...banner, html })} />
            </>
          )}
        </ListEditor>
      );
    default:
      // text, url, time, timeZone: a line of text (the server validates the form).
      return <Input label={name} error={error} type={field.kind === 'url' ? 'url' : 'text'} value={String(value ?? '')} onChange={onChange} />;
  }
}

function Box({ error, children }: { error?: string; children: ReactNode }) {
  return (
    <div className="field">
      {children}
      <FieldMessage error={error} />
    </div>
  );
}

function FieldMessage({ error }: { error?: string }) {
  return error ? (
    <p className="field-error" role="alert">
      {error}
    </p>
  ) : null;
}

/** A label beside (not around) its control: a control inside its label would add its value
 * to its own accessible name. */
function Labelled({ text, children }: { text: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="bo-settings-label">
      <label htmlFor={id}>{text}</label>
      {children(id)}
    </div>
  );
}

function Input({ label: text, error, value, onChange, type, step }: { label: string; error?: string; value: string; onChange: (value: string) => void; type: string; step?: number }) {
  return (
    <Box error={error}>
      <Labelled text={text}>
        {(id) => <input id={id} className="input" type={type} step={step} value={value} aria-invalid={error ? true : undefined} onChange={(event) => onChange(event.target.value)} />}
      </Labelled>
    </Box>
  );
}

/** th / la / en side by side; HTML with the players' preview of each. Shared with the other
 * editors of per-language texts (the prize wheel's slices). */
export function LocalizedEditor({ name, html, value, maxLength, onChange }: { name: string; html: boolean; value: Localized; maxLength?: number; onChange: (value: Localized) => void }) {
  const { t } = useTranslation();
  return (
    <div className="bo-settings-langs">
      {LANGS.map((lang) => {
        const fieldName = t('bo.settingsEditor.fieldIn', { field: name, lang: t(`bo.settingsEditor.lang.${lang}`) });
        return (
          <div key={lang} className="bo-settings-lang">
            <Labelled text={fieldName}>
              {(id) =>
                html ? (
                  <textarea id={id} className="input bo-settings-text" rows={4} maxLength={maxLength} value={value[lang] ?? ''} onChange={(event) => onChange({ ...value, [lang]: event.target.value })} />
                ) : (
                  <input id={id} className="input" maxLength={maxLength} value={value[lang] ?? ''} onChange={(event) => onChange({ ...value, [lang]: event.target.value })} />
                )
              }
            </Labelled>
            {html && <Preview name={fieldName} html={value[lang] ?? ''} />}
          </div>
        );
      })}
    </div>
  );
}

/** What players will see: the server's sanitiser (as on save), shown through SafeHtml. */
function Preview({ name, html }: { name: string; html: string }) {
  const { t } = useTranslation();
  const deferred = useDeferredValue(html);
  const preview = useQuery({
    queryKey: ['bo', 'contentPreview', deferred],
    queryFn: ({ signal }) => boApi.post('/api/backoffice/content/preview', { html: deferred }, { signal }),
    enabled: deferred.trim() !== '',
    placeholderData: (previous) => previous,
    staleTime: Infinity,
  });
  if (!html.trim()) return null;
  return (
    <section className="bo-settings-preview" aria-label={t('bo.settingsEditor.preview', { field: name })}>
      <SafeHtml html={preview.data?.html ?? ''} />
    </section>
  );
}

function ListEditor<T>({ name, error, items, blank, onChange, children }: { name: string; error?: string; items: T[]; blank: T; onChange: (items: T[]) => void; children: (item: T, n: number, update: (item: T) => void) => ReactNode }) {
  const { t } = useTranslation();
  return (
    <fieldset className="bo-settings-set">
      <legend>{name}</legend>
      {items.map((item, index) => (
        <div key={index} className="bo-settings-item">
          {children(item, index + 1, (next) => onChange(items.map((old, i) => (i === index ? next : old))))}
          <button type="button" className="bo-btn bo-btn-sm" onClick={() => onChange(items.filter((_, i) => i !== index))}>
            {t('bo.settingsEditor.remove', { field: name, n: index + 1 })}
          </button>
        </div>
      ))}
      <button type="button" className="bo-btn bo-btn-sm" onClick={() => onChange([...items, blank])}>
        {t('bo.settingsEditor.add', { field: name })}
      </button>
      <FieldMessage error={error} />
    </fieldset>
  );
}

function History({ path, fields, onRestored }: { path: GroupPath; fields: FieldOut[]; onRestored: () => void }) {
  const { t } = useTranslation();
  const kinds = new Map(fields.map((field) => [field.key, field.kind]));
  const errorText = useBoErrorText();
  const history = useQuery({
    queryKey: ['bo', 'settingsHistory', path],
    queryFn: ({ signal }) => boApi.get(historyPath(path), { signal }),
  });
  const [restoring, setRestoring] = useState<Version | null>(null);
  const restore = useMutation({
    mutationFn: (version: Version) => boApi.post(revertPath(path), undefined, { params: { change_set: version.changeSet } }),
    onSuccess: () => {
      setRestoring(null);
      onRestored();
    },
  });
  const headingId = `bo-history-${path.replaceAll('/', '-')}`;
  return (
    <section className="bo-settings-history" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('bo.settingsEditor.history')}</h2>
      {history.isError && (
        <p className="bo-error" role="alert">
          {errorText(history.error)}
        </p>
      )}
      {history.data && history.data.items.length === 0 && <p className="bo-muted">{t('bo.settingsEditor.historyEmpty')}</p>}
      <ol className="bo-settings-versions">
        {history.data?.items.map((version) => (
          <li key={version.changeSet} className="bo-settings-version">
            <p className="bo-strong">{t('bo.settingsEditor.byAt', { actor: version.actorName, at: formatDateTime(version.at) })}</p>
            <ul>
              {version.changes.map((change) => (
                <HistoryChange key={change.key} name={label(t, change.key)} kind={kinds.get(change.key)} before={change.before} after={change.after} />
              ))}
            </ul>
            <button type="button" className="bo-btn bo-btn-sm" onClick={() => setRestoring(version)}>
              {t('bo.settingsEditor.restore')}
            </button>
          </li>
        ))}
      </ol>
      {restoring && (
        <ConfirmDialog open title={t('bo.settingsEditor.restoreTitle')} confirm={t('bo.settingsEditor.restore')} pending={restore.isPending} error={restore.error} onConfirm={() => restore.mutate(restoring)} onClose={() => setRestoring(null)}>
          <p>{t('bo.settingsEditor.restoreText', { actor: restoring.actorName, at: formatDateTime(restoring.at) })}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** One setting a version changed, read as its editor shows it (history-values.ts). */
function HistoryChange({ name, kind, before, after }: { name: string; kind?: Kind; before: unknown; after: unknown }) {
  const { t } = useTranslation();
  const parts = describeChange(kind, before, after, (choice) => t(`bo.settingsEditor.choice.${choice}` as never));
  const [only] = parts;
  if (parts.length === 1 && only?.type === 'value') {
    return (
      <li>
        <span className="bo-strong">{name}</span>: <Values before={only.before} after={only.after} />
      </li>
    );
  }
  return (
    <li>
      <span className="bo-strong">{name}</span>
      <HistoryParts parts={parts} item={kind === 'banners' ? 'historyBanner' : 'historyItem'} change="changed" />
    </li>
  );
}

function HistoryParts({ parts, item, change }: { parts: Part[]; item: 'historyBanner' | 'historyItem'; change: ItemChange }) {
  const { t } = useTranslation();
  const langName = (lang: Lang) => t(`bo.settingsEditor.lang.${lang}`);
  return (
    <ul className="bo-history-parts">
      {parts.map((part) => {
        switch (part.type) {
          case 'item':
            return (
              <li key={`item-${part.n}`}>
                <span className="bo-strong">{t(`bo.settingsEditor.${item}`, { n: part.n })}</span>
                {part.change !== 'changed' && <span className="bo-muted"> ({t(part.change === 'added' ? 'bo.settingsEditor.historyAdded' : 'bo.settingsEditor.historyRemoved')})</span>}
                <HistoryParts parts={part.parts} item={item} change={part.change} />
              </li>
            );
          case 'lang':
            return (
              <li key={`lang-${part.lang}`}>
                <span className="bo-history-lang">{langName(part.lang)}:</span>{' '}
                {part.markup ? (
                  <>
                    {part.after} <span className="bo-muted">({t('bo.settingsEditor.historyMarkup')})</span>
                  </>
                ) : (
                  <Values before={part.before} after={part.after} change={change} stacked />
                )}
              </li>
            );
          case 'image':
            return (
              <li key="image">
                <span className="bo-history-lang">{t('bo.settingsEditor.historyImage')}:</span>{' '}
                <Values before={part.before && <Thumbnail image={part.before} />} after={part.after && <Thumbnail image={part.after} />} change={change} stacked />
              </li>
            );
          case 'html':
            return (
              <li key="html">
                {t(change === 'changed' ? 'bo.settingsEditor.historyHtmlChanged' : 'bo.settingsEditor.historyHtmlIn', { langs: part.langs.map(langName).join(', ') })}
              </li>
            );
          default:
            return (
              <li key="value">
                <Values before={part.before} after={part.after} change={change} />
              </li>
            );
        }
      })}
    </ul>
  );
}

/** Old → new; an item added shows only what it holds, one removed only what it held (the
 * item's label says which). `stacked`: old and new on lines of their own (texts, images). */
function Values({ before, after, change = 'changed', stacked = false }: { before: ReactNode; after: ReactNode; change?: ItemChange; stacked?: boolean }) {
  const dash = <span className="bo-muted">—</span>;
  if (change === 'added') return after === null ? dash : <ins className="bo-history-new">{after}</ins>;
  if (change === 'removed') return before === null ? dash : <span className="bo-muted">{before}</span>;
  const old = before === null ? dash : <del className="bo-history-old">{before}</del>;
  const now = after === null ? dash : <ins className="bo-history-new">{after}</ins>;
  if (stacked) {
    return (
      <span className="bo-history-stack">
        <span>{old}</span>
        <span>
          <span aria-hidden="true">→ </span>
          {now}
        </span>
      </span>
    );
  }
  return (
    <>
      {old}
      <span aria-hidden="true"> → </span>
      {now}
    </>
  );
}

function Thumbnail({ image }: { image: Image }) {
  return (
    <span className="bo-history-image">
      {/* The file name beside it names the image: the thumbnail itself is decoration. */}
      {image.src && <img src={image.src} alt="" loading="lazy" />}
      {image.name}
    </span>
  );
}
