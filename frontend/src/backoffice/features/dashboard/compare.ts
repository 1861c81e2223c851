/**
 * A figure beside the same figure of the period before (the day before, the week before, the
 * same number of days before a custom range): how much it moved, in its own units and in
 * percent. The percentage is left out when the period before had nothing (no base to divide by:
 * "+500.00 ฿", never "+∞ %"), and is of the size of the figure before, so a net that went from
 * −100 to +100 reads "+200 %", up.
 */
export type Direction = 'up' | 'down' | 'same';
export type Change = { direction: Direction; delta: number; percent: number | null };

/** How `current` moved from `previous`. Money is compared in minor units, so 0.1 + 0.2 is no
 * change from 0.3. */
export function change(current: number, previous: number, money = false): Change {
  const scale = money ? 100 : 1;
  const deltaUnits = Math.round(current * scale) - Math.round(previous * scale);
  const delta = deltaUnits / scale;
  const direction: Direction = deltaUnits > 0 ? 'up' : deltaUnits < 0 ? 'down' : 'same';
  const base = Math.abs(Math.round(previous * scale));
  const percent = base === 0 ? null : Math.round((deltaUnits / base) * 1000) / 10;
  return { direction, delta, percent };
}

/** "+12.5 %", "−3 %" (a true minus sign); "0 %" for no change. */
export function percentText(percent: number): string {
  if (percent === 0) return '0 %';
  const sign = percent > 0 ? '+' : '−';
  return `${sign}${Math.abs(percent).toLocaleString('en-US', { maximumFractionDigits: 1 })} %`;
}

/** The moved amount with its sign, formatted by `format` (which sees its absolute value). */
export function deltaText(delta: number, format: (amount: number) => string): string {
  if (delta === 0) return format(0);
  return `${delta > 0 ? '+' : '−'}${format(Math.abs(delta))}`;
}
