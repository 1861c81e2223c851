/**
 * Reports: one tab a report (daily figures, deposits and withdrawals, promotions, games, members,
 * staff, members who hit a protection limit), over a range of days kept in the URL (`?report=payments&range=30d`). Each of a report's
 * tables is shown with a chart where one reads faster than numbers, and exports as CSV.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { components } from '@/api/schema.gen';
import { showDay } from '@/lib/dates';
import type { Currency } from '@/lib/money';
import { Coded } from '../../components/Coded';
import { boApi } from '../../lib/api';
import { useBoErrorText } from '../../lib/errors';
import { reportText } from '../../lib/labels';
import { DayChart, type ChartDay } from '../dashboard/DayChart';
import { RangePicker } from '../dashboard/RangePicker';
import { operatorToday, readRange, writeRange, type DashboardRange } from '../dashboard/range';
import { Bars } from './Bars';
import { downloadCsv } from './download';
import { OpenRounds } from './OpenRounds';
import { formatCell, numeric, type Cell, type ColumnKind } from './report-format';

type ReportName = components['schemas']['ReportName'];
type TableOut = components['schemas']['TableOut'];

export const REPORTS: readonly ReportName[] = ['daily', 'payments', 'promotions', 'games', 'members', 'staff', 'protection'];
type Row = Record<string, Cell>;

const rowsOf = (table: TableOut): Row[] => table.rows.map((row) => Object.fromEntries(table.columns.map((column, i) => [column.key, row[i] ?? null])));

/** The chart of a table, where one helps; the table itself follows it. */
function Chart({ table, currency }: { table: TableOut; currency: Currency }) {
  const { t, i18n } = useTranslation();
  const rows = rowsOf(table);
  const money = (value: Cell) => formatCell('money', value, currency, i18n.language);
  const count = (value: Cell) => formatCell('count', value, currency, i18n.language);
  const bars = (label: (row: Row) => string, key: string, text: (value: Cell) => string) =>
    rows.map((row) => ({ label: label(row), value: Number(row[key] ?? 0), text: text(row[key] ?? 0) }));
  const title = t(`bo.reports.chart.${table.name}`, { defaultValue: '' });
  switch (table.name) {
    case 'days': {
      const days: ChartDay[] = rows.map((row) => ({
        date: String(row.day),
        deposits: Number(row.deposits),
        withdrawals: Number(row.withdrawals),
        newMembers: Number(row.new_members),
      }));
      return <DayChart days={days} currency={currency} />;
    }
    case 'channels':
      return <Bars title={title} bars={bars((row) => t(`bo.dashboard.channels.${String(row.channel)}`, { defaultValue: String(row.channel) }), 'sum', money)} />;
    case 'payouts':
      return <Bars title={title} bars={bars((row) => t(`bo.reports.payout.${String(row.kind)}`, { defaultValue: String(row.kind) }), 'sum', money)} />;
    case 'transfers':
      return rows.length ? <Bars title={title} bars={bars((row) => String(row.provider), 'to_game', money)} /> : null;
    case 'sources':
      return rows.length ? <Bars title={title} bars={bars((row) => String(row.source) || t('bo.reports.noSource'), 'registered', count)} /> : null;
    default:
      return null;
  }
}

function ReportTable({ report, table, currency, range }: { report: ReportName; table: TableOut; currency: Currency; range: { from: string; to: string } }) {
  const { t, i18n } = useTranslation();
  const [failed, setFailed] = useState(false);
  const id = `bo-report-${table.name}`;
  const title = t(`bo.reports.table.${table.name}`, { defaultValue: table.name });
  const exportCsv = () => {
    setFailed(false);
    downloadCsv(report, table.name, range).catch(() => setFailed(true));
  };
  return (
    <section className="bo-panel bo-report" aria-labelledby={id}>
      <div className="bo-report-head">
        <h2 id={id} className="bo-panel-title">
          {title}
        </h2>
        <button type="button" className="bo-btn bo-btn-sm" onClick={exportCsv} aria-label={t('bo.reports.exportOf', { table: title })}>
          {t('bo.reports.export')}
        </button>
      </div>
      {failed && (
        <p className="bo-error" role="alert">
          {t('bo.reports.exportFailed')}
        </p>
      )}
      {table.name === 'depositors' && <p className="bo-muted bo-small">{t('bo.reports.depositorsNote')}</p>}
      {table.name === 'hits' && <p className="bo-muted bo-small">{t('bo.reports.hitsNote')}</p>}
      {table.name === 'floats' && <p className="bo-muted bo-small">{t('bo.reports.floatsNote')}</p>}
      {table.name === 'seamless_clearing' && <p className="bo-muted bo-small">{t('bo.reports.seamlessClearingNote')}</p>}
      <Chart table={table} currency={currency} />
      {table.rows.length === 0 ? (
        <p className="bo-muted">{t('bo.reports.empty')}</p>
      ) : (
        <div className="bo-table-scroll">
          <table className="bo-table bo-table-compact" aria-labelledby={id}>
            <thead>
              <tr>
                {table.columns.map((column) => (
                  <th key={column.key} scope="col" className={numeric(column.kind as ColumnKind) ? 'bo-num' : undefined}>
                    {t(`bo.reports.col.${column.key}`, { defaultValue: column.key })}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, i) => (
                <tr key={i}>
                  {table.columns.map((column, j) => (
                    <td key={column.key} className={numeric(column.kind as ColumnKind) ? 'bo-num' : undefined}>
                      {column.kind === 'text' ? (
                        // A code's name (a status, a channel, an action…), the code in a tooltip.
                        <Coded code={String(row[j] ?? '')} label={reportText(t, column.key, String(row[j] ?? ''))} />
                      ) : (
                        formatCell(column.kind as ColumnKind, row[j] ?? null, currency, i18n.language)
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export default function ReportsPage() {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const [params, setParams] = useSearchParams();
  const report: ReportName = REPORTS.includes(params.get('report') as ReportName) ? (params.get('report') as ReportName) : 'daily';
  const range = readRange(params, operatorToday());
  const query = { from: range.from, to: range.to };
  const data = useQuery({
    queryKey: ['bo', 'reports', report, query],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/reports/{report}', { params: { report }, query, signal }),
    placeholderData: keepPreviousData,
  });
  const go = (next: ReportName, nextRange: DashboardRange = range) => {
    const search = writeRange(nextRange);
    if (next !== 'daily') search.set('report', next);
    setParams(search);
  };

  return (
    <section className="bo-page" aria-labelledby="bo-reports-title">
      <header className="bo-page-head">
        <div>
          <h1 id="bo-reports-title">{t('bo.reports.title')}</h1>
          <p className="bo-muted bo-small">
            {range.from === range.to ? showDay(range.from) : t('bo.dashboard.between', { from: showDay(range.from), to: showDay(range.to) })} · {t('bo.dashboard.zone')}
          </p>
        </div>
        <RangePicker key={params.toString()} range={range} onChange={(next) => go(report, next)} />
      </header>
      <div className="bo-tabs" role="tablist" aria-label={t('bo.reports.title')}>
        {REPORTS.map((name) => (
          <button key={name} type="button" role="tab" id={`bo-report-tab-${name}`} aria-selected={name === report} aria-controls="bo-report-panel" className="bo-tab" onClick={() => go(name)}>
            {t(`bo.reports.tab.${name}`)}
          </button>
        ))}
      </div>
      <div id="bo-report-panel" role="tabpanel" aria-labelledby={`bo-report-tab-${report}`} aria-busy={data.isFetching} className="bo-report-panel">
        {data.isError ? (
          <p className="bo-error" role="alert">
            {errorText(data.error)}
          </p>
        ) : data.data && data.data.report === report ? (
          <>
            {data.data.tables.map((table) => (
              <ReportTable key={table.name} report={report} table={table} currency={data.data.currency as Currency} range={query} />
            ))}
            {report === 'games' && <OpenRounds />}
          </>
        ) : (
          <p className="bo-muted">{t('bo.loading')}</p>
        )}
      </div>
    </section>
  );
}
