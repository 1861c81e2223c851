/** A code's name, with the code itself in a tooltip (statuses, kinds, actions). */
export function Coded({ code, label }: { code: string; label: string }) {
  return <span title={label === code ? undefined : code}>{label}</span>;
}
