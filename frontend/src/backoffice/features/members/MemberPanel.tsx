/**
 * The compact member page, for beside a support conversation: who the member is, status,
 * balance, masked bank account, the active bonus's turnover, latest logins, and a link to the
 * full page. Needs `members.read` (every role); it shows no actions.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Spinner } from '@/components/ui/Spinner';
import { formatDateTime } from '@/lib/dates';
import { useBoErrorText } from '../../lib/errors';
import { useMember } from './members-api';
import { BonusProgress, MemberFacts } from './MemberSummary';

export function MemberPanel({ memberId }: { memberId: number }) {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const member = useMember(memberId);
  if (member.isPending) return <Spinner />;
  if (member.isError)
    return (
      <p className="bo-error" role="alert">
        {errorText(member.error)}
      </p>
    );
  const m = member.data;
  return (
    <section className="bo-member-panel" aria-label={t('bo.members.panel', { name: m.name })}>
      <header className="bo-member-panel-head">
        <h2>{m.name}</h2>
        <span className="bo-muted">#{m.id}</span>
      </header>
      <MemberFacts member={m} />
      <h3>{t('bo.members.activeBonus')}</h3>
      <BonusProgress member={m} />
      <h3>{t('bo.members.recentLogins')}</h3>
      {m.recentLogins.length === 0 ? (
        <p className="bo-muted">{t('bo.members.noLogins')}</p>
      ) : (
        <ul className="bo-member-logins">
          {m.recentLogins.slice(0, 3).map((login) => (
            <li key={login.at}>
              {formatDateTime(login.at)} <span className="bo-muted">{login.ip ?? '—'}</span>
            </li>
          ))}
        </ul>
      )}
      <Link className="bo-link" to={`/members/${m.id}`}>
        {t('bo.members.openPage')}
      </Link>
    </section>
  );
}

export default MemberPanel;
