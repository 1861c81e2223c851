/**
 * Take a break: a time-out (1–30 days) or a self-exclusion (6 months, 1 year, 5 years, no end
 * date), each asked once more in a dialog that says plainly what happens. While a break runs,
 * the same form makes it longer (the server refuses a shorter one).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { SelectField } from '@/components/ui/Field';
import { useToast } from '@/components/ui/Toast';
import { useErrorText } from '@/hooks/use-error-text';
import { formatDateTime } from '@/lib/dates';
import { useStartExclusion, type ExclusionBody } from '../api/protection';
import { SELF_EXCLUSION_CHOICES, TIMEOUT_MAX_DAYS, TIMEOUT_MIN_DAYS, timeoutDays, type SelfExclusionKey } from '../rules';

const DAY_CHOICES = Array.from({ length: TIMEOUT_MAX_DAYS - TIMEOUT_MIN_DAYS + 1 }, (_, i) => i + TIMEOUT_MIN_DAYS);
const DAY_MS = 24 * 60 * 60 * 1000;

export function BreakForm({ excluded }: { excluded: boolean }) {
  const { t } = useTranslation();
  const toast = useToast();
  const errorText = useErrorText('protection');
  const start = useStartExclusion();
  const [days, setDays] = useState('7');
  const [length, setLength] = useState<SelfExclusionKey>('months6');
  // The break being confirmed, and when it was asked (its end shown from then).
  const [asking, setAsking] = useState<{ body: ExclusionBody; at: number } | null>(null);

  const choice = SELF_EXCLUSION_CHOICES.find((c) => c.key === length) ?? SELF_EXCLUSION_CHOICES[0];
  const confirm = () => {
    if (!asking) return;
    start.mutate(asking.body, {
      onSuccess: () => {
        setAsking(null);
        toast(t('protection.started'), 'success');
      },
      onError: (error) => {
        setAsking(null);
        toast(errorText(error), 'danger');
      },
    });
  };

  const title =
    asking?.body.kind === 'timeout'
      ? t('protection.confirmTimeoutTitle', { count: asking.body.days ?? 0 })
      : t('protection.confirmSelfTitle', { length: t(`protection.choice.${choice.key}`) });
  const ends =
    asking?.body.kind === 'timeout'
      ? t('protection.timeoutEnds', { time: formatDateTime(asking.at + (asking.body.days ?? 0) * DAY_MS) })
      : asking?.body.days === null
        ? t('protection.selfForever')
        : t('protection.selfEnds');

  return (
    <section className="card stack" aria-labelledby="protection-break">
      <h2 id="protection-break" className="section-title">
        {t('protection.break')}
      </h2>
      <p className="muted small">{excluded ? t('protection.longerOnly') : t('protection.breakText')}</p>
      <div className="protection-choice">
        <SelectField label={t('protection.timeout')} value={days} onChange={(e) => setDays(e.target.value)}>
          {DAY_CHOICES.map((n) => (
            <option key={n} value={n}>
              {t('protection.days', { count: n })}
            </option>
          ))}
        </SelectField>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => setAsking({ body: { kind: 'timeout', days: timeoutDays(days) }, at: Date.now() })}
        >
          {t('protection.timeoutButton')}
        </button>
      </div>
      <div className="protection-choice">
        <SelectField
          label={t('protection.selfExclusion')}
          value={length}
          onChange={(e) => setLength(e.target.value as SelfExclusionKey)}
        >
          {SELF_EXCLUSION_CHOICES.map((c) => (
            <option key={c.key} value={c.key}>
              {t(`protection.choice.${c.key}`)}
            </option>
          ))}
        </SelectField>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => setAsking({ body: { kind: 'self_exclusion', days: choice.days }, at: Date.now() })}
        >
          {t('protection.selfButton')}
        </button>
      </div>
      <ConfirmDialog
        open={asking !== null}
        title={title}
        message={
          <>
            {t('protection.closed')} {t('protection.withdrawOpen')}
            <br />
            {ends} {t('protection.noShorter')}
          </>
        }
        confirmLabel={asking?.body.kind === 'timeout' ? t('protection.confirmTimeout') : t('protection.confirmSelf')}
        busy={start.isPending}
        onConfirm={confirm}
        onCancel={() => setAsking(null)}
      />
    </section>
  );
}
