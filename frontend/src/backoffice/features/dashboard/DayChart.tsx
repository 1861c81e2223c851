/**
 * Deposits and paid withdrawals per day as bars, new members as a line on their own scale:
 * inline SVG drawn from the series (no chart library: the back office stays small, and the CSP
 * forbids inline styles, so every colour is a class in backoffice.css). The figures behind it
 * are also a table for screen readers (the chart itself is one labelled image).
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney, type Currency } from '@/lib/money';

export type ChartDay = { date: string; deposits: number; withdrawals: number; newMembers: number };

const W = 960;
const H = 280;
const PAD = { left: 64, right: 44, top: 16, bottom: 36 };

/** A round top for an axis: 1, 2 or 5 × a power of ten, at least `value`. */
export function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((m) => m * power >= value) ?? 10;
  return step * power;
}

function compact(value: number): string {
  if (value >= 1_000_000) return `${+(value / 1_000_000).toFixed(1)}M`;
  if (value >= 1_000) return `${+(value / 1_000).toFixed(1)}k`;
  return String(Math.round(value));
}

const shortDay = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;

export function DayChart({ days, currency }: { days: readonly ChartDay[]; currency: Currency }) {
  const { t } = useTranslation();
  const id = useId();
  const moneyTop = niceCeiling(Math.max(0, ...days.map((d) => Math.max(d.deposits, d.withdrawals))));
  const membersTop = niceCeiling(Math.max(0, ...days.map((d) => d.newMembers)));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, days.length);
  const bar = Math.max(2, Math.min(28, slot * 0.36));
  const y = (value: number, top: number) => PAD.top + plotH - (value / top) * plotH;
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const labelEvery = Math.ceil(days.length / 12);
  const line = days.map((d, i) => `${PAD.left + slot * (i + 0.5)},${y(d.newMembers, membersTop)}`).join(' ');

  return (
    <figure className="bo-chart">
      <div className="bo-chart-legend" aria-hidden="true">
        <span className="bo-legend bo-legend-deposits">{t('bo.dashboard.deposits')}</span>
        <span className="bo-legend bo-legend-withdrawals">{t('bo.dashboard.withdrawals')}</span>
        <span className="bo-legend bo-legend-members">{t('bo.dashboard.newMembers')}</span>
      </div>
      <svg className="bo-chart-svg" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title`}>
        <title id={`${id}-title`}>{t('bo.dashboard.chartTitle')}</title>
        {ticks.map((tick) => (
          <g key={tick}>
            <line className="bo-chart-grid" x1={PAD.left} x2={W - PAD.right} y1={y(tick * moneyTop, 1 * moneyTop)} y2={y(tick * moneyTop, moneyTop)} />
            <text className="bo-chart-axis" x={PAD.left - 8} y={y(tick * moneyTop, moneyTop) + 4} textAnchor="end">
              {compact(tick * moneyTop)}
            </text>
            <text className="bo-chart-axis" x={W - PAD.right + 8} y={y(tick * membersTop, membersTop) + 4} textAnchor="start">
              {Number.isInteger(tick * membersTop) ? tick * membersTop : ''}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const centre = PAD.left + slot * (i + 0.5);
          return (
            <g key={d.date}>
              <rect className="bo-chart-deposits" x={centre - bar - 1} width={bar} y={y(d.deposits, moneyTop)} height={Math.max(0, PAD.top + plotH - y(d.deposits, moneyTop))} rx={2} />
              <rect className="bo-chart-withdrawals" x={centre + 1} width={bar} y={y(d.withdrawals, moneyTop)} height={Math.max(0, PAD.top + plotH - y(d.withdrawals, moneyTop))} rx={2} />
              {i % labelEvery === 0 && (
                <text className="bo-chart-axis" x={centre} y={H - PAD.bottom + 18} textAnchor="middle">
                  {shortDay(d.date)}
                </text>
              )}
            </g>
          );
        })}
        {days.length > 1 && <polyline className="bo-chart-members" points={line} fill="none" />}
        {days.map((d, i) => (
          <circle key={d.date} className="bo-chart-members-dot" cx={PAD.left + slot * (i + 0.5)} cy={y(d.newMembers, membersTop)} r={3.5} />
        ))}
        <line className="bo-chart-base" x1={PAD.left} x2={W - PAD.right} y1={PAD.top + plotH} y2={PAD.top + plotH} />
      </svg>
      <table className="visually-hidden">
        <caption>{t('bo.dashboard.chartTitle')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('bo.dashboard.day')}</th>
            <th scope="col">{t('bo.dashboard.deposits')}</th>
            <th scope="col">{t('bo.dashboard.withdrawals')}</th>
            <th scope="col">{t('bo.dashboard.newMembers')}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <th scope="row">{d.date}</th>
              <td>{formatMoney(d.deposits, currency)}</td>
              <td>{formatMoney(d.withdrawals, currency)}</td>
              <td>{d.newMembers}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
