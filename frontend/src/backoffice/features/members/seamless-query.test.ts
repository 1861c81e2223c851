import { describe, expect, it } from 'vitest';
import { NO_FILTERS, seamlessApiQuery } from './seamless-query';

describe('seamlessApiQuery', () => {
  it('leaves out what is not filtered', () => {
    expect(seamlessApiQuery(NO_FILTERS)).toEqual({ provider: undefined, from: undefined, to: undefined, state: undefined });
  });

  it('turns days into local midnights, the last day inclusive', () => {
    const query = seamlessApiQuery({ provider: ' Hub88 ', from: '2026-12-01', to: '2026-12-06', state: 'open' });
    expect(query.provider).toBe('hub88');
    expect(query.state).toBe('open');
    expect(query.from).toBe(new Date(2026, 11, 1).toISOString());
    expect(query.to).toBe(new Date(2026, 11, 7).toISOString());
  });

  it('crosses a month end', () => {
    expect(seamlessApiQuery({ ...NO_FILTERS, to: '2026-12-31' }).to).toBe(new Date(2027, 0, 1).toISOString());
  });
});
