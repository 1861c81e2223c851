import { describe, expect, it } from 'vitest';
import { statementIcon, statementSign } from './statement-format';

describe('statement sign (spec §9)', () => {
  it('is + for deposit and bonus, - for withdraw, none for transfer', () => {
    expect(statementSign('deposit')).toBe('+');
    expect(statementSign('bonus')).toBe('+');
    expect(statementSign('withdraw')).toBe('-');
    expect(statementSign('transfer')).toBe('');
    expect(statementSign('finish_bonus')).toBe('');
  });

  it('has an icon for every type', () => {
    expect(statementIcon('deposit')).toBe('arrowDown');
    expect(statementIcon('unknown')).toBe('list');
  });
});
