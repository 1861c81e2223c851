import { describe, expect, it } from 'vitest';
import { changedFields, show } from './Changes';

describe('audit changes', () => {
  it('keeps only the fields that changed when both sides are known', () => {
    expect(changedFields({ role: 'viewer', login: 'ann' }, { role: 'manager', login: 'ann' })).toEqual([
      { field: 'role', before: 'viewer', after: 'manager' },
    ]);
  });

  it('lists every field of a creation or a deletion', () => {
    expect(changedFields(null, { login: 'bob', disabled: false })).toEqual([
      { field: 'login', before: undefined, after: 'bob' },
      { field: 'disabled', before: undefined, after: 'false' },
    ]);
  });
});

describe('money in the audit log', () => {
  it('shows an amount in its currency, kip without decimals', () => {
    expect(show({ $money: { THB: 555 } })).toBe('555.00 ฿');
    expect(show({ $money: { LAK: 500000 } })).toBe('500,000 ₭');
  });

  it("shows a per-currency setting's change per currency, unset as a dash", () => {
    expect(changedFields({ withdrawMin: { $money: { THB: 100, LAK: 50000 } } }, { withdrawMin: { $money: { THB: 200, LAK: 50000 } } })).toEqual([
      { field: 'withdrawMin', before: '100.00 ฿ · 50,000 ₭', after: '200.00 ฿ · 50,000 ₭' },
    ]);
    expect(show({ $money: { THB: 1, LAK: null } })).toBe('1.00 ฿ · LAK —');
  });

  it('shows an old amount of unknown currency without a unit, and money inside a structure', () => {
    expect(show({ $money: { XXX: 50 } })).toBe('50.00');
    expect(show({ label: 'Ten', prizeAmount: { $money: { THB: 10 } } })).toBe('{label: Ten, prizeAmount: 10.00 ฿}');
  });
});
