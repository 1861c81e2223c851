/**
 * The queue's filters: status and flags apply at once (a choice), the typed ones (amount range,
 * bank, member, age) on "Apply", after the form checked them (the server checks again). All of
 * them live in the URL query (withdrawals-query), so a reload or a shared link keeps them.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FLAGS,
  filterProblems,
  hasFilters,
  MAX_AGE_MINUTES,
  NO_FILTERS,
  normaliseFilters,
  STATUSES,
  type QueueFilters,
  type QueueFlags,
  type QueueView,
  type WithdrawalStatus,
} from './withdrawals-query';

type Draft = { amountMin: string; amountMax: string; bank: string; member: string; olderThan: string };

const draftOf = (view: QueueView): Draft => ({
  amountMin: view.amountMin,
  amountMax: view.amountMax,
  bank: view.bank,
  member: view.member,
  olderThan: view.olderThan === null ? '' : String(view.olderThan),
});

function filtersOf(draft: Draft, view: QueueView): QueueFilters {
  const age = draft.olderThan.trim();
  return normaliseFilters({ ...draft, olderThan: age === '' ? null : /^\d+$/.test(age) ? Number(age) : NaN, flags: view.flags });
}

export function QueueFilterForm({ view, onChange }: { view: QueueView; onChange: (next: Partial<QueueView>) => void }) {
  const { t } = useTranslation();
  const ids = { status: useId(), flags: useId(), amountMin: useId(), amountMax: useId(), bank: useId(), member: useId(), olderThan: useId() };
  // The typed fields follow the URL when it changes from elsewhere (back button, a link).
  const [draft, setDraft] = useState<Draft>(() => draftOf(view));
  const [shown, setShown] = useState(() => JSON.stringify(draftOf(view)));
  const current = JSON.stringify(draftOf(view));
  if (current !== shown) {
    setShown(current);
    setDraft(draftOf(view));
  }
  const [checked, setChecked] = useState(false);
  const problems = checked ? filterProblems(filtersOf(draft, view)) : {};

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const filters = filtersOf(draft, view);
    if (Object.keys(filterProblems(filters)).length) {
      setChecked(true);
      return;
    }
    setChecked(false);
    onChange({ ...filters, page: 1 });
  };
  const clear = () => {
    setChecked(false);
    setDraft(draftOf({ ...view, ...NO_FILTERS }));
    onChange({ ...NO_FILTERS, page: 1 });
  };
  const problemText = (field: keyof QueueFilters) => {
    const problem = problems[field];
    return problem ? t(`bo.withdrawals.filter.problem.${problem}`, { max: MAX_AGE_MINUTES }) : null;
  };
  const text = (field: keyof Draft, label: string, extra: { inputMode?: 'decimal' | 'numeric'; placeholder?: string } = {}) => {
    const problem = problemText(field);
    return (
      <div className="bo-filter">
        <label htmlFor={ids[field]}>{label}</label>
        <input
          id={ids[field]}
          className="bo-input"
          value={draft[field]}
          inputMode={extra.inputMode}
          placeholder={extra.placeholder}
          maxLength={field === 'bank' ? 10 : 20}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${ids[field]}-problem` : undefined}
          onChange={(event) => setDraft({ ...draft, [field]: event.target.value })}
        />
        {problem && (
          <span id={`${ids[field]}-problem`} className="bo-filter-problem" role="alert">
            {problem}
          </span>
        )}
      </div>
    );
  };

  return (
    <form className="bo-filters bo-wd-filters" aria-label={t('bo.withdrawals.filters')} onSubmit={submit} noValidate>
      <div className="bo-filter">
        <label htmlFor={ids.status}>{t('bo.withdrawals.statusLabel')}</label>
        <select
          id={ids.status}
          className="bo-input"
          value={view.status || 'all'}
          onChange={(event) => onChange({ status: event.target.value === 'all' ? '' : (event.target.value as WithdrawalStatus), page: 1 })}
        >
          {STATUSES.map((status) => (
            <option key={status} value={status}>
              {t(`bo.withdrawals.status.${status}`)}
            </option>
          ))}
          <option value="all">{t('bo.withdrawals.allStatuses')}</option>
        </select>
      </div>
      <div className="bo-filter">
        <label htmlFor={ids.flags}>{t('bo.withdrawals.filter.flags')}</label>
        <select id={ids.flags} className="bo-input" value={view.flags} onChange={(event) => onChange({ flags: event.target.value as QueueFlags | '', page: 1 })}>
          <option value="">{t('bo.withdrawals.filter.flagsAny')}</option>
          {FLAGS.map((flag) => (
            <option key={flag} value={flag}>
              {t(`bo.withdrawals.filter.flagsOption.${flag}`)}
            </option>
          ))}
        </select>
      </div>
      {text('amountMin', t('bo.withdrawals.filter.amountMin'), { inputMode: 'decimal' })}
      {text('amountMax', t('bo.withdrawals.filter.amountMax'), { inputMode: 'decimal' })}
      {text('bank', t('bo.withdrawals.filter.bank'), { placeholder: 'SCB' })}
      {text('member', t('bo.withdrawals.filter.member'), { inputMode: 'numeric' })}
      {text('olderThan', t('bo.withdrawals.filter.olderThan'), { inputMode: 'numeric' })}
      <div className="bo-filter-actions">
        <button type="submit" className="bo-btn bo-btn-primary">
          {t('bo.withdrawals.filter.apply')}
        </button>
        {hasFilters(view) && (
          <button type="button" className="bo-btn" onClick={clear}>
            {t('bo.withdrawals.filter.clear')}
          </button>
        )}
      </div>
    </form>
  );
}
