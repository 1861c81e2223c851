/**
 * The names of the codes the server answers (statuses, statement kinds, deposit channels,
 * member changes, report columns), in the reader's language. Staff read "Paid", "Bonus",
 * "Bank slip", not PAID, bonus, slip; the code stays in a tooltip (`<Coded>`) for those who
 * search logs or talk to support by it. A code the strings do not know yet (a new status)
 * shows as it is, never as a missing key.
 */
import type { TFunction } from 'i18next';

/** Every status a back-office screen shows (withdrawals, statements, slips, QR codes,
 * TrueMoney vouchers, reviews, adjustments), one name each. */
export const STATUSES = [
  'PENDING',
  'APPROVED',
  'PAID',
  'PAID_LATE',
  'REJECTED',
  'FAILED',
  'SUCCESS',
  'CREDITED',
  'EXPIRED',
  'CANCELLED',
  'OPEN',
  'POSTED',
  'AWAITING_APPROVAL',
  'UNMATCHED',
  'MATCHED_BY_HAND',
] as const;
/** The kinds of a member's statement line. */
export const STATEMENT_TYPES = ['deposit', 'bonus', 'finish_bonus', 'withdraw', 'transfer'] as const;
/** What a member change changed. */
export const CHANGE_KINDS = ['NAME', 'BANK_ACCOUNT', 'BANK_ACCOUNT_NAME', 'PASSWORD'] as const;

const named = (t: TFunction, key: string, code: string): string => (code ? t(key as never, { defaultValue: code }) : '—');

export const statusLabel = (t: TFunction, code: string) => named(t, `bo.labels.status.${code}`, code);
export const statementTypeLabel = (t: TFunction, code: string) => named(t, `bo.labels.statementType.${code}`, code);
export const changeKindLabel = (t: TFunction, code: string) => named(t, `bo.labels.changeKind.${code}`, code);
export const channelLabel = (t: TFunction, code: string) => named(t, `bo.dashboard.channels.${code}`, code);
export const roleLabel = (t: TFunction, code: string) => named(t, `bo.role.${code}`, code);
export const actionLabel = (t: TFunction, code: string) => named(t, `bo.auditAction.${code.replace(/\./g, '_')}`, code);
/** The other end of a statement line: the wallet, a staff adjustment, a promotion… (a bank's or
 * a game provider's own code stays as it is). */
export const partyLabel = (t: TFunction, code: string) => named(t, `bo.labels.party.${code}`, code);
export const objectLabel = (t: TFunction, code: string) => named(t, `bo.auditObject.${code}`, code);
export const payoutKindLabel = (t: TFunction, code: string) => named(t, `bo.reports.payout.${code}`, code);

/** A field of an audit row's before/after by its name (its key when it has none yet). */
export const fieldLabel = (t: TFunction, key: string) => named(t, `bo.auditField.${key}`, key);

/** A value of an audit row's field, named when the field holds a code (a status, a role, a
 * direction); null when it holds no code. */
export function fieldValueLabel(t: TFunction, key: string, value: unknown): string | null {
  if (typeof value !== 'string' || !value) return null;
  switch (key) {
    case 'status':
    case 'reviewStatus':
    case 'outcome':
      return statusLabel(t, value);
    case 'role':
      return roleLabel(t, value);
    case 'direction':
      return named(t, `bo.adjustments.direction.${value}`, value);
    default:
      return null;
  }
}

/** A report's text cell by its column: the name of a code (a status, a channel, a role, an
 * action, a payout kind), or the text as it is (a bank, a provider, a member's name). */
export function reportText(t: TFunction, column: string, value: string): string {
  switch (column) {
    case 'status':
    case 'review':
      return value ? statusLabel(t, value) : '—';
    case 'channel':
      return channelLabel(t, value);
    case 'role':
      return value ? roleLabel(t, value) : t('bo.audit.operator');
    case 'action':
      return actionLabel(t, value);
    case 'kind':
      return payoutKindLabel(t, value);
    case 'limit':
      return t(`bo.protection.hitKind.${value}`, { defaultValue: value });
    default:
      return value || '—';
  }
}
