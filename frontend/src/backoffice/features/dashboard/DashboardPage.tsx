/**
 * The dashboard, the back office's landing screen: the figures of a range of days (today, 7 or
 * 30 days, or custom; the range is the URL query), a chart by day, deposits by channel, the
 * providers' floats, and the queues' live counts (refetched every 15 s, each a link to its queue).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { components } from '@/api/schema.gen';
import { Icon, type IconName } from '@/components/ui/Icon';
import { formatMoney, type Currency } from '@/lib/money';
import { boApi } from '../../lib/api';
import { useBoErrorText } from '../../lib/errors';
import { DayChart } from './DayChart';
import { RangePicker } from './RangePicker';
import { operatorToday, readRange, writeRange, type DashboardRange } from './range';

type Dashboard = components['schemas']['DashboardOut'];
type Queues = components['schemas']['QueuesOut'];

const QUEUES_EVERY_MS = 15_000;

function Metric({ label, value, detail, tone }: { label: string; value: string; detail?: string; tone?: 'good' | 'bad' }) {
  return (
    <div className="bo-metric">
      <dt className="bo-metric-label">{label}</dt>
      <dd className={`bo-metric-value${tone ? ` bo-metric-${tone}` : ''}`}>{value}</dd>
      {detail && <dd className="bo-metric-detail">{detail}</dd>}
    </div>
  );
}

function QueueCounts({ initial }: { initial?: Queues }) {
  const { t } = useTranslation();
  const queues = useQuery({
    queryKey: ['bo', 'dashboard', 'queues'],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/dashboard/queues', { signal }),
    refetchInterval: QUEUES_EVERY_MS,
    initialData: initial,
  });
  const rows: { key: keyof Queues; label: string; to: string; icon: IconName }[] = [
    { key: 'withdrawalsPending', label: t('bo.dashboard.queue.withdrawalsPending'), to: '/withdrawals', icon: 'withdraw' },
    { key: 'slipsToReview', label: t('bo.dashboard.queue.slipsToReview'), to: '/deposits', icon: 'doc' },
    { key: 'unmatchedPayments', label: t('bo.dashboard.queue.unmatchedPayments'), to: '/deposits', icon: 'transfer' },
    { key: 'adjustmentsAwaiting', label: t('bo.dashboard.queue.adjustmentsAwaiting'), to: '/adjustments', icon: 'wallet' },
  ];
  return (
    <section className="bo-panel" aria-labelledby="bo-dash-queues">
      <h2 id="bo-dash-queues" className="bo-panel-title">
        {t('bo.dashboard.queues')} <span className="bo-live">{t('bo.dashboard.live')}</span>
      </h2>
      <ul className="bo-queues">
        {rows.map((row) => {
          const count = queues.data?.[row.key];
          return (
            <li key={row.key}>
              <Link to={row.to} className={`bo-queue${count ? ' bo-queue-busy' : ''}`}>
                <Icon name={row.icon} size={18} />
                <span className="bo-queue-label">{row.label}</span>
                <span className="bo-queue-count">{count ?? '—'}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Figures({ data }: { data: Dashboard }) {
  const { t } = useTranslation();
  const currency = data.currency as Currency;
  const money = (amount: number) => formatMoney(amount, currency);
  return (
    <>
      <dl className="bo-metrics">
        <Metric label={t('bo.dashboard.deposits')} value={money(data.deposits.sum)} detail={t('bo.dashboard.count', { count: data.deposits.count })} />
        <Metric label={t('bo.dashboard.withdrawals')} value={money(data.withdrawals.sum)} detail={t('bo.dashboard.count', { count: data.withdrawals.count })} />
        <Metric label={t('bo.dashboard.net')} value={money(data.net)} tone={data.net < 0 ? 'bad' : 'good'} />
        <Metric label={t('bo.dashboard.bonusesPaid')} value={money(data.bonusesPaid)} />
        <Metric
          label={t('bo.dashboard.manual')}
          value={money(data.manualAdjustments.credit)}
          detail={t('bo.dashboard.manualDebit', { amount: money(data.manualAdjustments.debit) })}
        />
        <Metric
          label={t('bo.dashboard.members')}
          value={String(data.members.new)}
          detail={t('bo.dashboard.membersDetail', { total: data.members.total, deposited: data.members.newDeposited })}
        />
      </dl>
      <section className="bo-panel" aria-labelledby="bo-dash-chart">
        <h2 id="bo-dash-chart" className="bo-panel-title">
          {t('bo.dashboard.byDay')}
        </h2>
        <DayChart days={data.series} currency={currency} />
      </section>
      <div className="bo-dash-tables">
        <section className="bo-panel" aria-labelledby="bo-dash-channels">
          <h2 id="bo-dash-channels" className="bo-panel-title">
            {t('bo.dashboard.byChannel')}
          </h2>
          <table className="bo-table bo-table-compact">
            <thead>
              <tr>
                <th scope="col">{t('bo.dashboard.channel')}</th>
                <th scope="col" className="bo-num">
                  {t('bo.dashboard.countHead')}
                </th>
                <th scope="col" className="bo-num">
                  {t('bo.dashboard.sum')}
                </th>
              </tr>
            </thead>
            <tbody>
              {data.deposits.byChannel.map((row) => (
                <tr key={row.channel}>
                  <th scope="row">{t(`bo.dashboard.channels.${row.channel}`, { defaultValue: row.channel })}</th>
                  <td className="bo-num">{row.count}</td>
                  <td className="bo-num">{money(row.sum)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">{t('bo.dashboard.total')}</th>
                <td className="bo-num">{data.deposits.count}</td>
                <td className="bo-num">{money(data.deposits.sum)}</td>
              </tr>
            </tfoot>
          </table>
        </section>
        <section className="bo-panel" aria-labelledby="bo-dash-floats">
          <h2 id="bo-dash-floats" className="bo-panel-title">
            {t('bo.dashboard.floats')}
          </h2>
          {data.providerFloats.length === 0 ? (
            <p className="bo-muted">{t('bo.dashboard.noFloats')}</p>
          ) : (
            <table className="bo-table bo-table-compact">
              <thead>
                <tr>
                  <th scope="col">{t('bo.dashboard.provider')}</th>
                  <th scope="col" className="bo-num">
                    {t('bo.dashboard.balance')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.providerFloats.map((row) => (
                  <tr key={row.provider}>
                    <th scope="row">{row.provider}</th>
                    <td className="bo-num">{money(row.balance)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p className="bo-muted bo-small">{t('bo.dashboard.floatsNote')}</p>
        </section>
      </div>
    </>
  );
}

export default function DashboardPage() {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const [params, setParams] = useSearchParams();
  const range = readRange(params, operatorToday());
  const query = { from: range.from, to: range.to };
  const figures = useQuery({
    queryKey: ['bo', 'dashboard', query],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/dashboard', { query, signal }),
    placeholderData: keepPreviousData,
  });
  const change = (next: DashboardRange) => setParams(writeRange(next));

  return (
    <section className="bo-page" aria-labelledby="bo-dash-title">
      <header className="bo-page-head">
        <div>
          <h1 id="bo-dash-title">{t('bo.dashboard.title')}</h1>
          <p className="bo-muted bo-small">
            {range.from === range.to ? range.from : t('bo.dashboard.between', { from: range.from, to: range.to })} · {t('bo.dashboard.zone')}
          </p>
        </div>
        <RangePicker key={params.toString()} range={range} onChange={change} />
      </header>
      <div className="bo-dash-grid" aria-busy={figures.isFetching}>
        <div className="bo-dash-main">
          {figures.isError ? (
            <p className="bo-error" role="alert">
              {errorText(figures.error)}
            </p>
          ) : figures.data ? (
            <Figures data={figures.data} />
          ) : (
            <p className="bo-muted">{t('bo.loading')}</p>
          )}
        </div>
        <aside className="bo-dash-side">
          <QueueCounts initial={figures.data?.queues} />
        </aside>
      </div>
    </section>
  );
}
