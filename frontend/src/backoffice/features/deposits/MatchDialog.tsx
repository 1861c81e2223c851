/** Match an unmatched payment to a member, never blind: who paid (as the bank said), the member
 * whose registered account paid (one click to choose), a member search by phone, name or
 * account, the chosen member's name, phone and bank, a warning with a confirm box when the
 * paying account is another member's, and a required note (kept in the audit log). */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '@/api/schema.gen';
import { TextField } from '@/components/ui/Field';
import { formatMoney } from '@/lib/money';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { boApi } from '../../lib/api';
import { DEPOSITS, newIdempotencyKey, useDepositsChanged } from './deposits-api';

type Payment = components['schemas']['UnmatchedOut'];
const SEARCH_PAUSE_MS = 300;
type Chosen = { id: number; name: string; phone: string; bankCode: string; accountNoMasked: string };

function MemberLine({ member }: { member: Chosen }) {
  return (
    <>
      <strong>{member.name}</strong> · {member.phone} · {member.bankCode} {member.accountNoMasked} (#{member.id})
    </>
  );
}

export function MatchDialog({ payment, onClose }: { payment: Payment; onClose: () => void }) {
  const { t } = useTranslation();
  const formId = useId();
  const changed = useDepositsChanged();
  const [q, setQ] = useState('');
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [note, setNote] = useState('');
  const [tried, setTried] = useState(false);
  // One key for this dialog's match: a double click or a retry replays, never credits twice.
  const key = useRef(newIdempotencyKey());
  const params = { kind: payment.kind, payment_id: payment.id };
  const detail = useQuery({
    queryKey: [...DEPOSITS, 'unmatched', 'one', payment.kind, payment.id],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/deposits/unmatched/{kind}/{payment_id}', { params, signal }),
  });
  // The search asks once typing pauses, not at every key (a phone number is ten of them).
  const [search, setSearch] = useState('');
  useEffect(() => {
    const pause = window.setTimeout(() => setSearch(q.trim()), SEARCH_PAUSE_MS);
    return () => window.clearTimeout(pause);
  }, [q]);
  const found = useQuery({
    queryKey: ['bo', 'members', 'match-search', search],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/members', { query: { q: search, limit: 5 }, signal }),
    enabled: search.length >= 2,
  });
  const ownerIds = detail.data?.ownerIds ?? [];
  const otherOwner = chosen !== null && ownerIds.length > 0 && !ownerIds.includes(chosen.id);
  const match = useMutation({
    mutationFn: () =>
      boApi.post(
        '/api/backoffice/deposits/unmatched/{kind}/{payment_id}/match',
        { memberId: chosen?.id ?? 0, note: note.trim(), confirmOtherOwner: otherOwner && confirmed },
        { params, headers: { 'Idempotency-Key': key.current } },
      ),
    onSuccess: () => {
      changed();
      onClose();
    },
  });
  const choose = (member: Chosen) => {
    setChosen(member);
    setConfirmed(false);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (chosen === null || note.trim() === '' || (otherOwner && !confirmed)) return;
    match.mutate();
  };
  const suggestion = detail.data?.suggestion;
  const status = detail.data?.ownerStatus;
  return (
    <ConfirmDialog
      open
      wide
      title={t('bo.deposits.matchTitle', { amount: formatMoney(payment.amount, payment.currency as 'THB') })}
      confirm={t('bo.deposits.match')}
      pending={match.isPending}
      error={match.error}
      formId={formId}
      onConfirm={() => match.mutate()}
      onClose={onClose}
    >
      <form id={formId} className="bo-form bo-match" onSubmit={submit} noValidate>
        <dl className="bo-deposit-facts">
          <dt>{t('bo.deposits.reference')}</dt>
          <dd>
            <code className="bo-code">{payment.reference}</code>
          </dd>
          <dt>{t('bo.deposits.payerBank')}</dt>
          <dd>{payment.payerBank ?? '—'}</dd>
          <dt>{t('bo.deposits.payerAccount')}</dt>
          <dd>{payment.payerAccount ?? '—'}</dd>
          <dt>{t('bo.deposits.payerName')}</dt>
          <dd>{payment.payerName ?? '—'}</dd>
        </dl>
        <section className="bo-match-suggestion" aria-label={t('bo.deposits.suggestion')}>
          <h3>{t('bo.deposits.suggestion')}</h3>
          {detail.isPending ? (
            <p className="bo-muted">{t('common.loading')}</p>
          ) : suggestion ? (
            <p>
              <MemberLine member={suggestion} />{' '}
              <button type="button" className="bo-btn bo-btn-sm" onClick={() => choose(suggestion)} disabled={chosen?.id === suggestion.id}>
                {t('bo.deposits.choose')}
              </button>
            </p>
          ) : (
            <p className="bo-muted">{t(`bo.deposits.owner.${status ?? 'UNKNOWN'}`)}</p>
          )}
        </section>
        <TextField label={t('bo.deposits.searchMember')} hint={t('bo.deposits.searchHint')} type="search" value={q} onChange={(event) => setQ(event.target.value)} data-autofocus />
        {search.length >= 2 && (
          <ul className="bo-match-results" aria-label={t('bo.deposits.results')}>
            {(found.data?.items ?? []).map((member) => (
              <li key={member.id}>
                <button type="button" className="bo-btn bo-btn-sm" onClick={() => choose(member)} aria-pressed={chosen?.id === member.id}>
                  {t('bo.deposits.choose')}
                </button>{' '}
                <MemberLine member={member} />
              </li>
            ))}
            {found.data && found.data.items.length === 0 && <li className="bo-muted">{t('bo.deposits.noMember')}</li>}
          </ul>
        )}
        <section className="bo-match-chosen" aria-label={t('bo.deposits.chosen')}>
          <h3>{t('bo.deposits.chosen')}</h3>
          {chosen ? (
            <p data-testid="match-chosen">
              <MemberLine member={chosen} />
            </p>
          ) : (
            <p className={tried ? 'bo-error' : 'bo-muted'}>{t('bo.deposits.noneChosen')}</p>
          )}
        </section>
        {otherOwner && (
          <div className="bo-error" role="alert">
            <p>{t(status === 'AMBIGUOUS' ? 'bo.deposits.otherOwnerAmbiguous' : 'bo.deposits.otherOwner')}</p>
            <label className="bo-match-confirm">
              <input type="checkbox" checked={confirmed} onChange={(event) => setConfirmed(event.target.checked)} />
              {t('bo.deposits.confirmOtherOwner')}
            </label>
          </div>
        )}
        <TextField
          label={t('bo.deposits.matchNote')}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          required
          maxLength={500}
          error={tried && note.trim() === '' ? t('bo.deposits.noteRequired') : undefined}
        />
      </form>
    </ConfirmDialog>
  );
}
