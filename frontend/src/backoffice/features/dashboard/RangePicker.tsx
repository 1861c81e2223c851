/**
 * The range of days of a screen of figures (the dashboard, the reports): presets counted back from
 * the operator's today, or a custom pair of days; the screen keeps it in the URL (./range.ts).
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PRESETS, type DashboardRange } from './range';

export function RangePicker({ range, onChange }: { range: DashboardRange; onChange: (next: DashboardRange) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState({ from: range.from, to: range.to });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (draft.from && draft.to) onChange({ kind: 'custom', ...draft });
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
      <form className="bo-range-custom" onSubmit={apply} aria-label={t('bo.dashboard.custom')}>
        <label className="bo-filter">
          <span>{t('bo.dashboard.from')}</span>
          <input className="bo-input bo-input-sm" type="date" value={draft.from} max={draft.to || undefined} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        </label>
        <label className="bo-filter">
          <span>{t('bo.dashboard.to')}</span>
          <input className="bo-input bo-input-sm" type="date" value={draft.to} min={draft.from || undefined} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </label>
        <button type="submit" className="bo-btn bo-btn-sm" aria-pressed={range.kind === 'custom'}>
          {t('bo.dashboard.apply')}
        </button>
      </form>
    </div>
  );
}
