import { describe, expect, it } from 'vitest';
import { duration, formatCell, numeric } from './report-format';

describe('report cells', () => {
  it('reads seconds as the two largest units', () => {
    expect(duration(45)).toBe('45 s');
    expect(duration(200)).toBe('3 min 20 s');
    expect(duration(7500)).toBe('2 h 05 min');
  });
  it('shows an empty cell as a dash and a share with its sign', () => {
    expect(formatCell('text', null, 'THB', 'en')).toBe('—');
    expect(formatCell('percent', 80, 'THB', 'en')).toBe('80 %');
    expect(formatCell('count', 12345, 'THB', 'en')).toBe('12,345');
  });
  it('lines numbers up on the right, never text', () => {
    expect(numeric('money')).toBe(true);
    expect(numeric('text')).toBe(false);
    expect(numeric('day')).toBe(false);
  });
});
