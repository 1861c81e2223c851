/** An audit row's before/after as a readable list: each field once, the old value struck through
 * beside the new one; fields that did not change are left out when both sides are known. */
type Values = Record<string, unknown> | null | undefined;

export function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

export function changedFields(before: Values, after: Values): { field: string; before?: string; after?: string }[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return keys
    .filter((key) => !before || !after || show(before[key]) !== show(after[key]))
    .map((key) => ({
      field: key,
      before: before ? show(before[key]) : undefined,
      after: after ? show(after[key]) : undefined,
    }));
}

export function Changes({ before, after }: { before: Values; after: Values }) {
  const fields = changedFields(before, after);
  if (fields.length === 0) return <span className="bo-muted">—</span>;
  return (
    <dl className="bo-diff">
      {fields.map((change) => (
        <div key={change.field} className="bo-diff-row">
          <dt>{change.field}</dt>
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
