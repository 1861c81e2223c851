/** An audit row's before/after as a readable list: each field once, the old value struck through
 * beside the new one; fields that did not change are left out when both sides are known. Money
 * is formatted in its currency wherever it sits (the server answers each amount as
 * `{"$money": {"THB": 555}}`, a per-currency setting with every currency). */
import { useTranslation } from 'react-i18next';
import { amountsText } from '../../components/history-values';
import { fieldLabel, fieldValueLabel } from '../../lib/labels';

type Values = Record<string, unknown> | null | undefined;
const MONEY = '$money';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` if it is an amount as the server answers one: its amounts by currency. */
function money(value: unknown): Record<string, unknown> | null {
  if (!isRecord(value) || Object.keys(value).length !== 1) return null;
  const amounts = value[MONEY];
  return isRecord(amounts) ? amounts : null;
}

/** A value inside a structure (a wheel slice, a list): amounts formatted, the rest as JSON. */
function inner(value: unknown): string {
  const amounts = money(value);
  if (amounts) return amountsText(amounts);
  if (Array.isArray(value)) return `[${value.map(inner).join(', ')}]`;
  if (isRecord(value)) return `{${Object.entries(value).map(([key, item]) => `${key}: ${inner(item)}`).join(', ')}}`;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  return inner(value);
}

/** The fields that changed, each side as text (`text` may name a field's codes). */
export function changedFields(
  before: Values,
  after: Values,
  text: (field: string, value: unknown) => string = (_, value) => show(value),
): { field: string; before?: string; after?: string }[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return keys
    .filter((key) => !before || !after || show(before[key]) !== show(after[key]))
    .map((key) => ({
      field: key,
      before: before ? text(key, before[key]) : undefined,
      after: after ? text(key, after[key]) : undefined,
    }));
}

export function Changes({ before, after }: { before: Values; after: Values }) {
  const { t } = useTranslation();
  // A status, role or direction by its name, a flag as yes or no; the rest as it is (amounts as
  // money).
  const text = (field: string, value: unknown) =>
    typeof value === 'boolean' ? t(value ? 'bo.members.yes' : 'bo.members.no') : (fieldValueLabel(t, field, value) ?? show(value));
  const fields = changedFields(before, after, text);
  if (fields.length === 0) return <span className="bo-muted">—</span>;
  return (
    <dl className="bo-diff">
      {fields.map((change) => (
        <div key={change.field} className="bo-diff-row">
          <dt title={change.field}>{fieldLabel(t, change.field)}</dt>
          <dd>
            {change.before !== undefined && <del>{change.before}</del>}
            {change.before !== undefined && change.after !== undefined && <span aria-hidden="true"> → </span>}
            {change.after !== undefined && <ins>{change.after}</ins>}
          </dd>
        </div>
      ))}
    </dl>
  );
}
