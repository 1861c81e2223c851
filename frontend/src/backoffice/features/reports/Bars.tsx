/**
 * Horizontal bars, one a row (a channel's deposits, a source's registrations…): inline SVG, each
 * colour a class (the CSP forbids inline styles). One labelled image; its numbers are the table
 * beside it.
 */
import { useId } from 'react';

export type Bar = { label: string; value: number; text: string };

const W = 560;
const ROW = 26;
const LABEL = 150;
const VALUE = 110;

export function Bars({ bars, title }: { bars: readonly Bar[]; title: string }) {
  const id = useId();
  const top = Math.max(0, ...bars.map((bar) => bar.value)) || 1;
  const plot = W - LABEL - VALUE;
  return (
    <svg className="bo-bars" viewBox={`0 0 ${W} ${bars.length * ROW + 4}`} role="img" aria-labelledby={`${id}-title`}>
      <title id={`${id}-title`}>{title}</title>
      {bars.map((bar, i) => (
        <g key={bar.label} transform={`translate(0 ${i * ROW + 2})`}>
          <text className="bo-chart-axis" x={LABEL - 8} y={ROW / 2 + 4} textAnchor="end">
            {bar.label.length > 22 ? `${bar.label.slice(0, 21)}…` : bar.label}
          </text>
          <rect className="bo-bars-bar" x={LABEL} y={4} height={ROW - 8} width={Math.max(bar.value > 0 ? 2 : 0, (Math.max(0, bar.value) / top) * plot)} rx={3} />
          <text className="bo-chart-axis" x={W - 4} y={ROW / 2 + 4} textAnchor="end">
            {bar.text}
          </text>
        </g>
      ))}
    </svg>
  );
}
