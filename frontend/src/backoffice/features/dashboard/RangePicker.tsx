/**
 * The range of days of a screen of figures (the dashboard, the reports): presets counted back from
 * the operator's today, or a custom pair of days typed as Thai operators write them, DD/MM/YYYY
 * (not the browser's own date field, which shows MM/DD in an English browser); the screen keeps
 * the range in the URL as YYYY-MM-DD (./range.ts).
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { parseDay, showDay } from '@/lib/dates';
import { PRESETS, type DashboardRange } from './range';

type Edge = 'from' | 'to';

export function RangePicker({ range, onChange }: { range: DashboardRange; onChange: (next: DashboardRange) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState({ from: showDay(range.from), to: showDay(range.to) });
  const [bad, setBad] = useState<Edge[]>([]);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const days = { from: parseDay(draft.from), to: parseDay(draft.to) };
    const wrong = (['from', 'to'] as const).filter((edge) => days[edge] === null);
    // Days in the wrong order are refused as the end's mistake.
    if (wrong.length === 0 && (days.from ?? '') > (days.to ?? '')) wrong.push('to');
    setBad(wrong);
    if (wrong.length === 0 && days.from && days.to) onChange({ kind: 'custom', from: days.from, to: days.to });
  };
  const day = (edge: Edge, label: string) => {
    const id = `bo-range-${edge}`;
    const invalid = bad.includes(edge);
    return (
      <div className="bo-filter">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          className="bo-input bo-input-sm bo-input-day"
          inputMode="numeric"
          placeholder={t('bo.audit.dayFormat')}
          value={draft[edge]}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? `${id}-error` : undefined}
          onChange={(event) => setDraft({ ...draft, [edge]: event.target.value })}
        />
        {invalid && (
          <span id={`${id}-error`} className="field-error">
            {t('bo.audit.badDay')}
          </span>
        )}
      </div>
    );
  };
  return (
    <div className="bo-range">
      <div className="bo-segmented" role="group" aria-label={t('bo.dashboard.range')}>
        {PRESETS.map((preset) => (
          <button
            key={preset}
            type="button"
            className="bo-btn bo-btn-sm"
            aria-pressed={range.kind === preset}
            onClick={() => onChange({ kind: preset, from: '', to: '' })}
          >
            {t(`bo.dashboard.preset.${preset}`)}
          </button>
        ))}
      </div>
      <form className="bo-range-custom" onSubmit={apply} aria-label={t('bo.dashboard.custom')} noValidate>
        {day('from', t('bo.dashboard.from'))}
        {day('to', t('bo.dashboard.to'))}
        <button type="submit" className="bo-btn bo-btn-sm" aria-pressed={range.kind === 'custom'}>
          {t('bo.dashboard.apply')}
        </button>
      </form>
    </div>
  );
}
