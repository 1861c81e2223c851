/**
 * The member's player protection as staff see it: whether deposits, play and bonuses are closed
 * and until when, the deposit limits now (with a raise waiting out its 24 hours), every limit
 * change, every time-out or self-exclusion, and the latest refusals and payments credited over a
 * limit anyway (flagged: the money had already left the member's bank). Read only: only the member can change them, and
 * never to shorten them (backend pao.protection).
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/dates';
import type { components } from '@/api/schema.gen';
import { formatMoney, type Currency } from '@/lib/money';
import { boApi } from '../../lib/api';
import { useBoErrorText } from '../../lib/errors';
import { memberKey, type MemberDetail } from './members-api';

type Limit = components['schemas']['LimitOut'];

function LimitsTable({ caption, counted, rows, money, currency }: { caption: string; counted: string; rows: Limit[]; money: (amount: number | null) => string; currency: Currency }) {
  const { t } = useTranslation();
  return (
    <div className="bo-table-wrap">
      <table className="bo-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('bo.protection.period')}</th>
            <th scope="col">{t('bo.protection.limit')}</th>
            <th scope="col">{t('bo.protection.pending')}</th>
            <th scope="col">{counted}</th>
            <th scope="col">{t('bo.protection.remaining')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((limit) => (
            <tr key={limit.period}>
              <td>{t(`bo.protection.periodName.${limit.period}`)}</td>
              <td>{money(limit.amount)}</td>
              <td>{limit.pendingFrom ? `${money(limit.pending)} · ${formatDateTime(limit.pendingFrom)}` : '—'}</td>
              <td>{formatMoney(limit.deposited, currency)}</td>
              <td>{limit.remaining === null ? '—' : formatMoney(limit.remaining, currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

// A self-exclusion the member has not asked to end is stored as "until the year 9999".
const NOT_BEFORE_ASKED = 9000;

export function Protection({ member }: { member: MemberDetail }) {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const query = useQuery({
    queryKey: [...memberKey(member.id), 'protection'],
    queryFn: () => boApi.get('/api/backoffice/members/{member_id}/protection', { params: { member_id: member.id } }),
  });
  if (query.isError)
    return (
      <p className="bo-error" role="alert">
        {errorText(query.error)}
      </p>
    );
  if (!query.data) return <p className="bo-muted">{t('common.loading')}</p>;
  const { excludedUntil, limits, lossLimits, limitChanges, exclusions, hits } = query.data;
  const flagged = hits.filter((hit) => hit.outcome === 'credited').length;
  const money = (amount: number | null) => (amount === null ? t('bo.protection.none') : formatMoney(amount, member.currency));
  const until = (at: string | null) =>
    at === null ? t('bo.protection.indefinite') : new Date(at).getUTCFullYear() >= NOT_BEFORE_ASKED ? t('bo.protection.untilAsked') : formatDateTime(at);
  return (
    <div className="bo-stack">
      <p role="status" className={excludedUntil ? 'bo-error' : 'bo-muted'}>
        {excludedUntil ? t('bo.protection.excluded', { until: until(excludedUntil) }) : t('bo.protection.open')}
      </p>
      {flagged > 0 && (
        <p className="bo-error" role="status">
          <span className="bo-badge bo-badge-warn">⚑</span> {t('bo.protection.flagged', { count: flagged })}
        </p>
      )}
      <LimitsTable caption={t('bo.protection.limits')} counted={t('bo.protection.deposited')} rows={limits} money={money} currency={member.currency} />
      <LimitsTable caption={t('bo.protection.lossLimits')} counted={t('bo.protection.lost')} rows={lossLimits} money={money} currency={member.currency} />
      <div className="bo-table-wrap">
        <table className="bo-table">
          <caption>{t('bo.protection.exclusions')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('bo.protection.kind')}</th>
              <th scope="col">{t('bo.protection.starts')}</th>
              <th scope="col">{t('bo.protection.ends')}</th>
              <th scope="col">{t('bo.protection.endAsked')}</th>
            </tr>
          </thead>
          <tbody>
            {exclusions.length === 0 && (
              <tr>
                <td colSpan={4} className="bo-muted">
                  {t('bo.members.noRows')}
                </td>
              </tr>
            )}
            {exclusions.map((row) => (
              <tr key={row.startsAt}>
                <td>{t(`bo.protection.kindName.${row.kind}`)}</td>
                <td>{formatDateTime(row.startsAt)}</td>
                <td>{until(row.endsAt)}</td>
                <td>{row.endRequestedAt ? formatDateTime(row.endRequestedAt) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="bo-table-wrap">
        <table className="bo-table">
          <caption>{t('bo.protection.hits')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('bo.protection.at')}</th>
              <th scope="col">{t('bo.protection.limit')}</th>
              <th scope="col">{t('bo.protection.outcomeCol')}</th>
              <th scope="col">{t('bo.protection.channel')}</th>
              <th scope="col">{t('bo.protection.amount')}</th>
            </tr>
          </thead>
          <tbody>
            {hits.length === 0 && (
              <tr>
                <td colSpan={5} className="bo-muted">
                  {t('bo.members.noRows')}
                </td>
              </tr>
            )}
            {hits.map((hit, i) => (
              <tr key={`${hit.at}-${i}`}>
                <td>{formatDateTime(hit.at)}</td>
                <td>{t(`bo.protection.hitKind.${hit.kind}`)}</td>
                <td className={hit.outcome === 'credited' ? 'bo-error' : undefined}>
                  {hit.outcome === 'credited' && '⚑ '}
                  {t(`bo.protection.outcome.${hit.outcome}`)}
                </td>
                <td>{hit.reference ? `${hit.channel} · ${hit.reference}` : hit.channel}</td>
                <td>{hit.amount === null ? t('bo.protection.unknown') : formatMoney(hit.amount, member.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="bo-table-wrap">
        <table className="bo-table">
          <caption>{t('bo.protection.changes')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('bo.protection.asked')}</th>
              <th scope="col">{t('bo.protection.kind')}</th>
              <th scope="col">{t('bo.protection.period')}</th>
              <th scope="col">{t('bo.protection.limit')}</th>
              <th scope="col">{t('bo.protection.inForce')}</th>
            </tr>
          </thead>
          <tbody>
            {limitChanges.length === 0 && (
              <tr>
                <td colSpan={5} className="bo-muted">
                  {t('bo.members.noRows')}
                </td>
              </tr>
            )}
            {limitChanges.map((row) => (
              <tr key={`${row.createdAt}-${row.period}`}>
                <td>{formatDateTime(row.createdAt)}</td>
                <td>{t(`bo.protection.limitKind.${row.kind}`)}</td>
                <td>{t(`bo.protection.periodName.${row.period}` as never)}</td>
                <td>{money(row.amount)}</td>
                <td>{formatDateTime(row.effectiveFrom)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
