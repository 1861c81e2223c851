import { describe, expect, it } from 'vitest';
import { providerNotice, providerUsable } from './provider-state';

const t = (key: string, vars?: Record<string, string>) => (vars ? `${key} ${JSON.stringify(vars)}` : key);

describe('provider state on the game card', () => {
  it('says nothing for a usable provider', () => {
    expect(providerNotice({ providerState: 'ok' }, t)).toBeNull();
    expect(providerNotice({}, t)).toBeNull();
    expect(providerUsable({})).toBe(true);
  });

  it('shows maintenance with its planned end in local time, or without one', () => {
    const until = new Date(2026, 11, 1, 14, 30, 59);
    expect(providerNotice({ providerState: 'maintenance', maintenanceUntil: until.toISOString() }, t)).toBe(
      'games.maintenanceUntil {"time":"01/12/2026 14:30"}',
    );
    expect(providerNotice({ providerState: 'maintenance', maintenanceUntil: null }, t)).toBe('games.maintenance');
    expect(providerUsable({ providerState: 'maintenance' })).toBe(false);
  });

  it('shows a down provider as temporarily unavailable', () => {
    expect(providerNotice({ providerState: 'down' }, t)).toBe('games.down');
    expect(providerUsable({ providerState: 'down' })).toBe(false);
  });
});
