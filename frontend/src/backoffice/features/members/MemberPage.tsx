/**
 * A member's page: profile and bank account (full number on request, audited), wallet and the
 * active bonus's turnover, the operator's actions (each behind a confirmation with a reason),
 * and the history tabs. Actions the role lacks are not shown; the server refuses them anyway.
 */
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Spinner } from '@/components/ui/Spinner';
import { formatDateTime } from '@/lib/dates';
import { useMe } from '../../lib/auth';
import { useBoErrorText } from '../../lib/errors';
import { may } from '../../lib/permissions';
import { BankReveal } from './BankReveal';
import { MemberActions } from './MemberActions';
import { useMember } from './members-api';
import { LinkedMembers } from './LinkedMembers';
import { BonusProgress, MemberFacts } from './MemberSummary';
import { MemberTabs } from './MemberTabs';

export default function MemberPage() {
  const { t } = useTranslation();
  const { me } = useMe();
  const errorText = useBoErrorText();
  const memberId = Number(useParams().memberId);
  const valid = Number.isSafeInteger(memberId) && memberId > 0;
  const member = useMember(valid ? memberId : 0);
  if (!valid || member.isError)
    return (
      <section className="bo-page">
        <p className="bo-error" role="alert">
          {member.isError ? errorText(member.error) : t('bo.members.empty')}
        </p>
        <Link className="bo-link" to="..">
          {t('bo.members.back')}
        </Link>
      </section>
    );
  if (member.isPending) return <Spinner />;
  const m = member.data;
  return (
    <section className="bo-page" aria-labelledby="bo-member-title">
      <header className="bo-page-head">
        <div className="bo-stack">
          <Link className="bo-link bo-small bo-member-back" to="..">
            {t('bo.members.back')}
          </Link>
          <h1 id="bo-member-title">
            {m.name} <span className="bo-muted">#{m.id}</span>
          </h1>
        </div>
        <MemberActions member={m} me={me} />
      </header>
      <div className="bo-member-grid">
        <section className="bo-member-card" aria-labelledby="bo-member-profile">
          <h2 id="bo-member-profile">{t('bo.members.profile')}</h2>
          <MemberFacts member={m} />
          <dl className="bo-member-facts">
            <div>
              <dt>{t('bo.members.inviteCode')}</dt>
              <dd>{m.inviteCode}</dd>
            </div>
            <div>
              <dt>{t('bo.members.inviter')}</dt>
              <dd>{m.inviterId ? <Link className="bo-link" to={`../${m.inviterId}`}>#{m.inviterId}</Link> : '—'}</dd>
            </div>
            <div>
              <dt>{t('bo.members.source')}</dt>
              <dd>{m.sourceCode ?? '—'}</dd>
            </div>
            <div>
              <dt>{t('bo.members.createdAt')}</dt>
              <dd>{formatDateTime(m.createdAt)}</dd>
            </div>
          </dl>
          {may(me, 'members.sensitive.read') && <BankReveal memberId={m.id} />}
          <h3>{t('bo.links.title')}</h3>
          <LinkedMembers links={m.linkedMembers} />
        </section>
        <section className="bo-member-card" aria-labelledby="bo-member-wallet">
          <h2 id="bo-member-wallet">{t('bo.members.wallet')}</h2>
          <dl className="bo-member-facts">
            <div>
              <dt>{t('bo.members.currency')}</dt>
              <dd>{m.currency}</dd>
            </div>
            <div>
              <dt>{t('bo.members.coins')}</dt>
              <dd>{m.coin}</dd>
            </div>
          </dl>
          <h3>{t('bo.members.activeBonus')}</h3>
          <BonusProgress member={m} />
          {may(me, 'members.credit') && (
            <Link className="bo-btn" to={`/adjustments/new?member=${m.id}`}>
              {t('bo.members.manualAdjust')}
            </Link>
          )}
        </section>
      </div>
      <MemberTabs member={m} me={me} />
    </section>
  );
}
