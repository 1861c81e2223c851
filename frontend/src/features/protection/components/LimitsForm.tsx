/**
 * The three deposit limits, or the three loss limits (deposits less withdrawals): what is in
 * force, what counts against it and what is left in each period, a raise or removal waiting with
 * its time, and the form that changes them. Both follow the same rules on the server.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/ui/Field';
import { Spinner } from '@/components/ui/Spinner';
import { useToast } from '@/components/ui/Toast';
import { useErrorText } from '@/hooks/use-error-text';
import { formatDateTime } from '@/lib/dates';
import { useMoney, useMoneyUnit } from '@/lib/member-currency';
import { useSetLimits, useSetLossLimits, type Limit } from '../api/protection';
import { checkLimits, formOf, PERIODS, type LimitForm, type Period } from '../rules';

export function LimitsForm({ limits, kind }: { limits: Limit[]; kind: 'deposit' | 'loss' }) {
  const { t } = useTranslation();
  const money = useMoney();
  const unit = useMoneyUnit();
  const toast = useToast();
  const errorText = useErrorText('protection');
  const setDeposit = useSetLimits();
  const setLoss = useSetLossLimits();
  const save = kind === 'deposit' ? setDeposit : setLoss;
  const id = `protection-${kind}`;
  const [form, setForm] = useState<LimitForm>(() => formOf(limits));
  const [invalid, setInvalid] = useState<Period[]>([]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const check = checkLimits(limits, form);
    if (!check.ok) return setInvalid(check.invalid);
    setInvalid([]);
    if (check.changes.length === 0) return toast(t('protection.unchanged'), 'info');
    save.mutate(check.body, {
      onSuccess: (state) => {
        setForm(formOf(state.limits));
        const later = check.changes.some((change) => change.when === 'later');
        toast(later ? t('protection.savedLater') : t('protection.savedNow'), 'success');
      },
      onError: (error) => toast(errorText(error), 'danger'),
    });
  };

  // A loss below zero (the member won) counts as none. The server counts a loss only once a
  // loss limit was ever set: without one, no line rather than a loss of 0.
  const usage = (limit: Limit) => {
    const counted = money(Math.max(0, limit.deposited));
    if (kind === 'loss') {
      return limit.remaining === null ? null : t('protection.lossUsage', { lost: counted, remaining: money(limit.remaining) });
    }
    return limit.remaining === null
      ? t('protection.usageNoLimit', { deposited: counted })
      : t('protection.usage', { deposited: counted, remaining: money(limit.remaining) });
  };

  const hint = (period: Period) => {
    const limit = limits.find((l) => l.period === period);
    if (!limit) return undefined;
    const lines = [
      limit.amount === null ? t('protection.noLimit') : t('protection.inForce', { amount: money(limit.amount) }),
      usage(limit),
    ].filter((line): line is string => line !== null);
    if (limit.pendingFrom) {
      const time = formatDateTime(limit.pendingFrom);
      lines.push(
        limit.pending === null
          ? t('protection.pendingRemoval', { time })
          : t('protection.pending', { amount: money(limit.pending), time }),
      );
    }
    return (
      <>
        {lines.map((line) => (
          <span key={line} className="protection-line">
            {line}
          </span>
        ))}
      </>
    );
  };

  return (
    <section className="card stack" aria-labelledby={id}>
      <h2 id={id} className="section-title">
        {kind === 'deposit' ? t('protection.limits') : t('protection.lossLimits')}
      </h2>
      <p className="muted small">{kind === 'deposit' ? t('protection.limitsHint') : t('protection.lossHint')}</p>
      <form className="stack" onSubmit={onSubmit} noValidate>
        {PERIODS.map((period) => (
          <TextField
            key={period}
            label={t('protection.fieldLabel', { period: t(`protection.period.${period}`), unit })}
            inputMode="decimal"
            autoComplete="off"
            placeholder={t('protection.emptyHint')}
            value={form[period]}
            hint={hint(period)}
            error={invalid.includes(period) ? t('protection.invalid') : undefined}
            onChange={(e) => setForm((current) => ({ ...current, [period]: e.target.value }))}
          />
        ))}
        <button type="submit" className="btn btn-primary btn-block" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : t('protection.save')}
        </button>
      </form>
    </section>
  );
}
