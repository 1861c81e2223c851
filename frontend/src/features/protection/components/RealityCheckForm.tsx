/** The play-limits page's reality-check choice: a reminder every 15–120 minutes, or off. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '@/components/ui/Field';
import { useToast } from '@/components/ui/Toast';
import { useErrorText } from '@/hooks/use-error-text';
import { useSetRealityCheck } from '../api/reality-check';
import { REALITY_INTERVALS } from '../reality-timing';

const OFF = 'off';

export function RealityCheckForm({ minutes }: { minutes: number | null }) {
  const { t } = useTranslation();
  const toast = useToast();
  const errorText = useErrorText('protection');
  const save = useSetRealityCheck();
  const [value, setValue] = useState(minutes === null ? OFF : String(minutes));

  const submit = () => {
    save.mutate(
      { minutes: value === OFF ? null : Number(value) },
      {
        onSuccess: () => toast(value === OFF ? t('reality.savedOff') : t('reality.saved', { count: Number(value) }), 'success'),
        onError: (error) => toast(errorText(error), 'danger'),
      },
    );
  };

  return (
    <section className="card stack" aria-labelledby="protection-reality">
      <h2 id="protection-reality" className="section-title">
        {t('reality.formTitle')}
      </h2>
      <p className="muted small">{t('reality.formText')}</p>
      <div className="protection-choice">
        <SelectField label={t('reality.every')} value={value} onChange={(e) => setValue(e.target.value)}>
          <option value={OFF}>{t('reality.off')}</option>
          {REALITY_INTERVALS.map((n) => (
            <option key={n} value={n}>
              {t('reality.minutes', { count: n })}
            </option>
          ))}
        </SelectField>
        <button type="button" className="btn btn-secondary" onClick={submit} disabled={save.isPending}>
          {t('reality.save')}
        </button>
      </div>
    </section>
  );
}
