/**
 * A manual credit or debit: the member (prefilled from ?member=<id>, as the member page links
 * here), the direction, the amount and why. It says before sending whether the amount will wait
 * for a second staff member's approval. One Idempotency-Key per intent, reused on a retry, so a
 * double click or a lost answer never adjusts twice.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { components } from '@/api/schema.gen';
import { TextField } from '@/components/ui/Field';
import { useIntentMutation } from '@/hooks/use-intent-key';
import { variantCurrency } from '@/lib/member-currency';
import { formatMoney, parseAmount } from '@/lib/money';
import { boApi } from '../../lib/api';
import { useBoErrorText } from '../../lib/errors';
import { POLICY, useAdjustmentsChanged } from './adjustments-api';
import { ApprovalReasons } from './ApprovalReasons';

type Direction = components['schemas']['AdjustmentDirection'];
type Request = { memberId: number; direction: Direction; amount: number; reason: string };

const MEMBER_ID = /^[1-9]\d{0,17}$/;

export default function NewAdjustmentPage() {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const changed = useAdjustmentsChanged();
  const [params] = useSearchParams();
  const [memberId, setMemberId] = useState(() => (MEMBER_ID.test(params.get('member') ?? '') ? (params.get('member') ?? '') : ''));
  const [direction, setDirection] = useState<Direction>('credit');
  const [amountText, setAmountText] = useState('');
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const policy = useQuery({ queryKey: POLICY, queryFn: ({ signal }) => boApi.get('/api/backoffice/adjustments/policy', { signal }) });
  const send = useIntentMutation(
    (input: Request, key: string) =>
      boApi.post(
        '/api/backoffice/members/{member_id}/adjustments',
        { direction: input.direction, amount: input.amount, reason: input.reason },
        { params: { member_id: input.memberId }, headers: { 'Idempotency-Key': key } },
      ),
    { onSuccess: changed },
  );

  const amount = parseAmount(amountText);
  const errors = {
    memberId: MEMBER_ID.test(memberId) ? null : t('bo.adjustments.memberIdInvalid'),
    amount: amount !== null && amount > 0 ? null : t('bo.adjustments.amountInvalid'),
    reason: reason.trim() ? null : t('bo.adjustments.reasonRequired'),
  };
  // The member named by the id: who is credited, and the wallet's currency, which picks the
  // approval limit (per currency: none set for it means every adjustment waits).
  const id = errors.memberId === null ? Number(memberId) : null;
  const member = useQuery({
    queryKey: [...POLICY, 'member', id],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/members/{member_id}', { params: { member_id: id ?? 0 }, signal }),
    enabled: id !== null,
    retry: false,
  });
  const currency = (id !== null && member.data?.currency) || variantCurrency();
  const limit = policy.data === undefined ? undefined : (policy.data.approvalAbove[currency] ?? null);
  const waits = amount !== null && limit !== undefined && (limit === null || amount > limit);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (errors.memberId || errors.amount || errors.reason || amount === null) return;
    send.mutate({ memberId: Number(memberId), direction, amount, reason: reason.trim() });
  };

  const done = send.data;
  return (
    <section className="bo-page" aria-labelledby="bo-adjustment-new-title">
      <header className="bo-page-head">
        <h1 id="bo-adjustment-new-title">{t('bo.adjustments.newTitle')}</h1>
        <Link to=".." relative="path" className="bo-btn">
          {t('bo.adjustments.backToList')}
        </Link>
      </header>
      {done ? (
        <div className="bo-adj-card bo-adj-done" role="status">
          <p className="bo-strong">
            {done.status === 'AWAITING_APPROVAL' ? t('bo.adjustments.doneWaiting') : t('bo.adjustments.donePosted')}
          </p>
          <p>
            {t('bo.adjustments.summary', {
              direction: t(`bo.adjustments.direction.${done.direction}`),
              amount: formatMoney(done.amount, done.currency),
              currency: done.currency,
              phone: done.memberPhone,
              requester: done.requestedByName,
            })}
          </p>
          <ApprovalReasons adjustment={done} />
          <div className="bo-row-actions">
            <Link to={`..?status=${done.status}`} relative="path" className="bo-btn bo-btn-primary">
              {t('bo.adjustments.backToList')}
            </Link>
            <button
              type="button"
              className="bo-btn"
              onClick={() => {
                send.reset();
                setAmountText('');
                setReason('');
                setTouched(false);
              }}
            >
              {t('bo.adjustments.another')}
            </button>
          </div>
        </div>
      ) : (
        <form className="bo-form bo-adj-card bo-adj-form" onSubmit={submit} noValidate aria-label={t('bo.adjustments.newTitle')}>
          <TextField
            label={t('bo.adjustments.memberId')}
            inputMode="numeric"
            value={memberId}
            onChange={(event) => setMemberId(event.target.value.trim())}
            error={touched ? errors.memberId : null}
            hint={id !== null && member.data ? `${member.data.name} · ${member.data.phone} · ${member.data.currency}` : undefined}
          />
          <fieldset className="bo-adj-direction">
            <legend className="field-label">{t('bo.adjustments.directionLabel')}</legend>
            {(['credit', 'debit'] as const).map((value) => (
              <label key={value} className="bo-adj-radio">
                <input type="radio" name="direction" value={value} checked={direction === value} onChange={() => setDirection(value)} />
                <span>{t(`bo.adjustments.directionChoice.${value}`)}</span>
              </label>
            ))}
          </fieldset>
          <TextField
            label={t('bo.adjustments.amount')}
            inputMode="decimal"
            value={amountText}
            onChange={(event) => setAmountText(event.target.value)}
            error={touched ? errors.amount : null}
            hint={
              limit === undefined || limit === null
                ? undefined
                : t('bo.adjustments.limitHint', { limit: `${formatMoney(limit, currency)} ${currency}` })
            }
          />
          <TextField
            label={t('bo.adjustments.reason')}
            value={reason}
            maxLength={500}
            onChange={(event) => setReason(event.target.value)}
            error={touched ? errors.reason : null}
          />
          {amount !== null && amount > 0 && limit !== undefined && (
            <p className={waits ? 'bo-adj-note bo-adj-note-wait' : 'bo-adj-note'} aria-live="polite">
              {waits ? t('bo.adjustments.willWait') : t('bo.adjustments.willPost')}
            </p>
          )}
          {send.isError && (
            <p className="bo-error" role="alert">
              {errorText(send.error)}
            </p>
          )}
          <div className="bo-row-actions">
            <button type="submit" className="bo-btn bo-btn-primary" disabled={send.isPending}>
              {waits ? t('bo.adjustments.submitForApproval') : t('bo.adjustments.submit')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
