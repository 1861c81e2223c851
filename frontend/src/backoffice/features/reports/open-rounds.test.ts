import { describe, expect, it } from 'vitest';
import { readMinutes } from './OpenRounds';

describe('readMinutes', () => {
  it('reads whole minutes', () => {
    expect(readMinutes(' 45 ')).toBe(45);
    expect(readMinutes('0')).toBe(0);
  });

  it('refuses what is not a whole number of minutes', () => {
    for (const text of ['', '-5', '1.5', 'abc', '1234567']) expect(readMinutes(text)).toBeNull();
  });
});
