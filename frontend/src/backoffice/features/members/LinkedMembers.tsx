/**
 * The members linked to one (the same bank account number, holder name or device; a login
 * address when the operator holds for it), each with why, linked to their own page. Shown on the
 * member page and in a withdrawal's detail (the cashier decides on it).
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { MemberDetail } from './members-api';

export type LinkedMember = MemberDetail['linkedMembers'][number];

export function LinkedMembers({ links }: { links: LinkedMember[] }) {
  const { t } = useTranslation();
  if (links.length === 0) return <p className="bo-muted">{t('bo.links.none')}</p>;
  return (
    <ul className="bo-wd-list" aria-label={t('bo.links.title')}>
      {links.map((m) => (
        <li key={m.id}>
          <span>
            <Link className="bo-link" to={`/members/${m.id}`}>
              {m.name}
            </Link>{' '}
            · {m.phone}
          </span>
          <span className="bo-muted bo-small">
            {m.bankCode} {m.accountNoMasked} · {m.bankAccountName}
          </span>
          <span className="bo-link-reasons">
            {m.reasons.map((reason) => (
              <span key={reason} className="bo-badge">
                {t(`bo.links.reason.${reason}`)}
              </span>
            ))}
          </span>
        </li>
      ))}
    </ul>
  );
}
