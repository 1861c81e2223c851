/**
 * The dashboard's date range, kept in the URL (`?range=7d` or `?range=custom&from=…&to=…`).
 * Days are the operator's (Asia/Bangkok, the server's `timezone` setting): presets are counted
 * back from today there, not in the browser's zone.
 */
export const PRESETS = ['today', 'yesterday', '7d', '30d'] as const;
export type Preset = (typeof PRESETS)[number];
export type RangeKind = Preset | 'custom';
export type DashboardRange = { kind: RangeKind; from: string; to: string };

export const OPERATOR_ZONE = 'Asia/Bangkok';
const DAY = /^\d{4}-\d{2}-\d{2}$/;
// How many days each preset spans, and how many days before today it ends.
const PRESET_DAYS: Record<Preset, number> = { today: 1, yesterday: 1, '7d': 7, '30d': 30 };
const PRESET_ENDS_BEFORE: Record<Preset, number> = { today: 0, yesterday: 1, '7d': 0, '30d': 0 };

/** Today in the operator's zone, YYYY-MM-DD. */
export function operatorToday(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: OPERATOR_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export function addDays(day: string, n: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
}

export function readRange(params: URLSearchParams, today: string): DashboardRange {
  const kind = params.get('range');
  if (kind === 'custom') {
    const from = params.get('from') ?? '';
    const to = params.get('to') ?? '';
    if (DAY.test(from) && DAY.test(to)) return { kind, from, to };
  }
  const preset: Preset = PRESETS.includes(kind as Preset) ? (kind as Preset) : 'today';
  const to = addDays(today, -PRESET_ENDS_BEFORE[preset]);
  return { kind: preset, from: addDays(to, 1 - PRESET_DAYS[preset]), to };
}

export function writeRange(range: DashboardRange): URLSearchParams {
  if (range.kind === 'custom') return new URLSearchParams({ range: 'custom', from: range.from, to: range.to });
  return range.kind === 'today' ? new URLSearchParams() : new URLSearchParams({ range: range.kind });
}
