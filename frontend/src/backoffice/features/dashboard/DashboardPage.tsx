/**
 * The dashboard, the back office's landing screen: the figures of a range of days (today,
 * yesterday, 7 or 30 days, or custom; the range is the URL query), each beside the same figure
 * of the period before (./compare.ts), a chart by day, deposits by channel, the providers' floats,
 * and the queues' live counts (refetched every 15 s, each a link to its queue). Goodwill credits
 * (back-office corrections) are a figure of their own, neither deposits nor in the net (ADR
 * 0010). Every amount carries its unit; a site with wallets in two currencies (a Lao operator's
 * baht and kip) switches between them (`?currency=`).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { components } from '@/api/schema.gen';
import { Icon, type IconName } from '@/components/ui/Icon';
import { currencyUnit } from '@/lib/currency-unit';
import { showDay } from '@/lib/dates';
import { formatMoney, type Currency } from '@/lib/money';
import { moneyText } from '../../components/history-values';
import { boApi } from '../../lib/api';
import { useBoErrorText } from '../../lib/errors';
import { change, deltaText, percentText } from './compare';
import { DayChart } from './DayChart';
import { RangePicker } from './RangePicker';
import { operatorToday, readRange, writeRange, type DashboardRange } from './range';

type Dashboard = components['schemas']['DashboardOut'];
type Queues = components['schemas']['QueuesOut'];
type Previous = components['schemas']['PreviousOut'];

const CURRENCIES: readonly Currency[] = ['THB', 'LAK'];
/** A range of days as staff read it: "18/11/2026", or "12/11/2026 to 18/11/2026". */
const periodText = (t: TFunction, from: string, to: string) =>
  from === to ? showDay(from) : t('bo.dashboard.between', { from: showDay(from), to: showDay(to) });

const QUEUES_EVERY_MS = 15_000;

/** A figure's move from the period before: "▲ +150.00 ฿ (+50 %) vs 18/11/2026". */
type Versus = { current: number; previous: number; money: boolean; format: (value: number) => string };

function Metric({ label, value, detail, tone, versus, period }: { label: string; value: string; detail?: string; tone?: 'good' | 'bad'; versus?: Versus; period?: string }) {
  const { t } = useTranslation();
  const moved = versus ? change(versus.current, versus.previous, versus.money) : null;
  return (
    <div className="bo-metric">
      <dt className="bo-metric-label">{label}</dt>
      <dd className={`bo-metric-value${tone ? ` bo-metric-${tone}` : ''}`}>{value}</dd>
      {detail && <dd className="bo-metric-detail">{detail}</dd>}
      {versus && moved && (
        <dd className={`bo-metric-change bo-metric-change-${moved.direction}`}>
          <span aria-hidden="true">{moved.direction === 'up' ? '▲' : moved.direction === 'down' ? '▼' : '■'} </span>
          {moved.direction === 'same'
            ? t('bo.dashboard.unchanged', { period })
            : t('bo.dashboard.versus', {
                change: moved.percent === null ? deltaText(moved.delta, versus.format) : `${deltaText(moved.delta, versus.format)} (${percentText(moved.percent)})`,
                period,
              })}
        </dd>
      )}
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
  // Every amount with its unit: kip without decimals, baht with them.
  const withUnit = (amount: number) => moneyText(amount, currency);
  const before: Previous = data.previous;
  const period = periodText(t, before.from, before.to);
  const versus = (current: number, previous: number, isMoney = true): Versus => ({
    current,
    previous,
    money: isMoney,
    format: isMoney ? withUnit : (value) => String(value),
  });
  return (
    <>
      <dl className="bo-metrics" aria-describedby="bo-dash-versus">
        <Metric
          label={t('bo.dashboard.deposits')}
          value={withUnit(data.deposits.sum)}
          detail={t('bo.dashboard.count', { count: data.deposits.count })}
          versus={versus(data.deposits.sum, before.deposits.sum)}
          period={period}
        />
        <Metric
          label={t('bo.dashboard.withdrawals')}
          value={withUnit(data.withdrawals.sum)}
          detail={t('bo.dashboard.count', { count: data.withdrawals.count })}
          versus={versus(data.withdrawals.sum, before.withdrawals.sum)}
          period={period}
        />
        <Metric label={t('bo.dashboard.net')} value={withUnit(data.net)} tone={data.net < 0 ? 'bad' : 'good'} versus={versus(data.net, before.net)} period={period} />
        <Metric
          label={t('bo.dashboard.goodwill')}
          value={withUnit(data.manualAdjustments.credit)}
          detail={t('bo.dashboard.goodwillDebit', { amount: withUnit(data.manualAdjustments.debit) })}
          versus={versus(data.manualAdjustments.credit, before.manualAdjustments.credit)}
          period={period}
        />
        <Metric label={t('bo.dashboard.bonusesPaid')} value={withUnit(data.bonusesPaid)} versus={versus(data.bonusesPaid, before.bonusesPaid)} period={period} />
        <Metric
          label={t('bo.dashboard.members')}
          value={String(data.members.new)}
          detail={t('bo.dashboard.membersDetail', { total: data.members.total, deposited: data.members.newDeposited })}
          versus={versus(data.members.new, before.membersNew, false)}
          period={period}
        />
      </dl>
      <p id="bo-dash-versus" className="bo-muted bo-small">
        {t('bo.dashboard.versusNote', { period })} {t('bo.dashboard.goodwillNote')}
      </p>
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
                  {t('bo.dashboard.sumIn', { unit: currencyUnit(t, currency) })}
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
                    {t('bo.dashboard.balanceIn', { unit: currencyUnit(t, currency) })}
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
        <section className="bo-panel" aria-labelledby="bo-dash-seamless">
          <h2 id="bo-dash-seamless" className="bo-panel-title">
            {t('bo.dashboard.seamless')}
          </h2>
          {data.seamless.length === 0 ? (
            <p className="bo-muted">{t('bo.dashboard.noSeamless')}</p>
          ) : (
            <table className="bo-table bo-table-compact">
              <thead>
                <tr>
                  <th scope="col">{t('bo.dashboard.provider')}</th>
                  <th scope="col" className="bo-num">
                    {t('bo.dashboard.seamlessBets', { unit: currencyUnit(t, currency) })}
                  </th>
                  <th scope="col" className="bo-num">
                    {t('bo.dashboard.seamlessWins', { unit: currencyUnit(t, currency) })}
                  </th>
                  <th scope="col" className="bo-num">
                    {t('bo.dashboard.seamlessGgr', { unit: currencyUnit(t, currency) })}
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.seamless.map((row) => (
                  <tr key={row.provider}>
                    <th scope="row">{row.provider}</th>
                    <td className="bo-num">{money(row.bets)}</td>
                    <td className="bo-num">{money(row.wins)}</td>
                    <td className="bo-num">{money(row.ggr)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p className="bo-muted bo-small">{t('bo.dashboard.seamlessNote')}</p>
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
  const asked = params.get('currency');
  // Unset: the server's default (the operator's currency, kip on a Lao server).
  const currency = CURRENCIES.includes(asked as Currency) ? (asked as Currency) : undefined;
  const query = { from: range.from, to: range.to, currency };
  const figures = useQuery({
    queryKey: ['bo', 'dashboard', query],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/dashboard', { query, signal }),
    placeholderData: keepPreviousData,
  });
  const keepCurrency = (next: URLSearchParams) => {
    if (currency) next.set('currency', currency);
    return next;
  };
  const pick = (next: DashboardRange) => setParams(keepCurrency(writeRange(next)));
  const showIn = (next: Currency) => {
    const search = writeRange(range);
    search.set('currency', next);
    setParams(search);
  };
  const shown = figures.data?.currency as Currency | undefined;
  const currencies = (figures.data?.currencies ?? []) as Currency[];

  return (
    <section className="bo-page" aria-labelledby="bo-dash-title">
      <header className="bo-page-head">
        <div>
          <h1 id="bo-dash-title">{t('bo.dashboard.title')}</h1>
          <p className="bo-muted bo-small">
            {periodText(t, range.from, range.to)} · {t('bo.dashboard.zone')}
            {shown && ` · ${t('bo.dashboard.amountsIn', { unit: currencyUnit(t, shown) })}`}
          </p>
        </div>
        <div className="bo-dash-controls">
          {currencies.length > 1 && shown && (
            <div className="bo-segmented" role="group" aria-label={t('bo.dashboard.currency')}>
              {currencies.map((code) => (
                <button key={code} type="button" className="bo-btn bo-btn-sm" aria-pressed={shown === code} onClick={() => showIn(code)}>
                  {currencyUnit(t, code)}
                </button>
              ))}
            </div>
          )}
          <RangePicker key={params.toString()} range={range} onChange={pick} />
        </div>
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
