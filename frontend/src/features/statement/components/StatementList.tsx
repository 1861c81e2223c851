/** Transaction history: 10 per page, icon, activity, status, date-time, relative time, amount. */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/Icon';
import { Pagination } from '@/components/ui/Pagination';
import { DelayedSpinner } from '@/components/ui/Spinner';
import { useRelativeTime } from '@/hooks/use-relative-time';
import { formatDateTime } from '@/lib/dates';
import { useMoney } from '@/lib/member-currency';
import { pageCount } from '@/lib/pagination';
import { STATEMENT_PAGE_SIZE, useStatement, type Statement } from '../api/statement';
import { statementIcon, statementSign } from './statement-format';

const STATUS_TONE: Record<string, string> = { SUCCESS: 'success', FAILED: 'danger' };

export function StatementList() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const statement = useStatement(page);

  if (statement.isPending) return <DelayedSpinner />;
  const data = statement.data;
  if (!data) return null;
  const count = pageCount(data.total, STATEMENT_PAGE_SIZE);

  return (
    <div className="stack">
      {data.statements.length === 0 ? (
        <p className="empty card">{t('statement.empty')}</p>
      ) : (
        <ul className="statement-list" aria-busy={statement.isFetching}>
          {data.statements.map((row) => (
            <StatementRow key={row._id} row={row} />
          ))}
        </ul>
      )}
      <Pagination
        page={page}
        count={count}
        onChange={(next) => {
          setPage(next);
          window.scrollTo({ top: 0 });
        }}
      />
    </div>
  );
}

/**
 * The line's note in the UI's language: from its code and parameters (statement.notes.*), or
 * the server's description for a line older than the codes or a code this build does not know.
 */
function describe(row: Statement, t: TFunction): string | null | undefined {
  const note = row.bonus ?? row.promotion ?? row.invite ?? row.refund ?? row.luckydraw ?? row.withdraw;
  if (!note) return undefined;
  if (!note.code) return note.description;
  return t(`statement.notes.${note.code}`, { ...note.params, defaultValue: note.description });
}

function StatementRow({ row }: { row: Statement }) {
  const money = useMoney();
  const { t } = useTranslation();
  const relative = useRelativeTime();
  const sign = statementSign(row.statementType);
  const place = (value: string | null | undefined) =>
    !value || value.toUpperCase() === 'WALLET' ? t('statement.wallet') : value;
  const detail =
    row.statementType === 'transfer'
      ? t('statement.transfer', { from: place(row.from), to: place(row.to) })
      : describe(row, t);
  // Anything not final reads as 'in progress' (spec §4: the default, shown as a warning).
  const status = row.status === 'SUCCESS' || row.status === 'FAILED' ? row.status : 'PENDING';
  const tone = STATUS_TONE[status] ?? 'warning';

  return (
    <li className="statement-row">
      <span className={`statement-icon statement-icon-${row.statementType}`} aria-hidden="true">
        <Icon name={statementIcon(row.statementType)} size={20} />
      </span>
      <div className="statement-main">
        <p className="statement-title">{t(`statement.types.${row.statementType}`, { defaultValue: row.statementType })}</p>
        {detail && <p className="statement-detail">{detail}</p>}
        <p className="statement-time">
          <time dateTime={row.createdAt}>{formatDateTime(row.createdAt)}</time>
          <span>{relative(row.createdAt)}</span>
        </p>
      </div>
      <div className="statement-side">
        <p className={`statement-amount amount-${sign === '+' ? 'in' : sign === '-' ? 'out' : 'plain'}`}>
          {sign}
          {money(row.amount)}
        </p>
        <span className={`badge badge-${tone}`}>{t(`statement.status.${status}`)}</span>
      </div>
    </li>
  );
}
