/** How a statement row reads: sign of its amount and its icon (spec §9). */
import type { IconName } from '@/components/ui/Icon';
import type { Statement } from '../api/statement';

export type StatementType = Statement['statementType'];

/** deposit and bonus '+', withdraw '-', anything else unsigned. */
export function statementSign(type: string): '+' | '-' | '' {
  if (type === 'deposit' || type === 'bonus') return '+';
  if (type === 'withdraw') return '-';
  return '';
}

export const STATEMENT_ICONS: Record<StatementType, IconName> = {
  deposit: 'arrowDown',
  bonus: 'gift',
  finish_bonus: 'flag',
  withdraw: 'arrowUp',
  transfer: 'transfer',
};

export function statementIcon(type: string): IconName {
  return STATEMENT_ICONS[type as StatementType] ?? 'list';
}
