/** The member's game accounts with credentials and live balances, fetched only when asked for
 * (the server audits the read); a slow provider shows its last known amount, marked. */
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/dates';
import { formatMoney } from '@/lib/money';
import { boApi } from '../../lib/api';
import { useBoErrorText } from '../../lib/errors';
import type { MemberDetail } from './members-api';

export function GameAccounts({ member }: { member: MemberDetail }) {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const reveal = useMutation({
    mutationFn: () => boApi.get('/api/backoffice/members/{member_id}/game-accounts', { params: { member_id: member.id } }),
  });
  if (!reveal.data)
    return (
      <div className="bo-stack">
        <button type="button" className="bo-btn bo-btn-sm" onClick={() => reveal.mutate()} disabled={reveal.isPending}>
          {t('bo.members.revealGames')}
        </button>
        <span className="bo-muted bo-small">{t('bo.members.revealGamesHint')}</span>
        {reveal.isError && (
          <p className="bo-error" role="alert">
            {errorText(reveal.error)}
          </p>
        )}
      </div>
    );
  if (reveal.data.length === 0) return <p className="bo-muted">{t('bo.members.noRows')}</p>;
  return (
    <div className="bo-table-wrap">
      <table className="bo-table">
        <caption className="visually-hidden">{t('bo.members.tab.games')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('bo.members.col.game')}</th>
            <th scope="col">{t('bo.members.col.username')}</th>
            <th scope="col">{t('bo.members.col.password')}</th>
            <th scope="col">{t('bo.members.balance')}</th>
          </tr>
        </thead>
        <tbody>
          {reveal.data.map((account) => (
            <tr key={account.gameCode}>
              <td>{account.gameName}</td>
              <td>
                <code className="bo-code">{account.username}</code>
              </td>
              <td>
                <code className="bo-code">{account.password}</code>
              </td>
              <td>
                {account.balance === null ? '—' : formatMoney(account.balance, member.currency)}
                {account.stale && (
                  <span className="bo-muted bo-small">
                    {' '}
                    ({t('bo.members.stale')}
                    {account.balanceAt ? `, ${formatDateTime(account.balanceAt)}` : ''})
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
