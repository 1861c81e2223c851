import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/errors';
import { IntentKeys } from './use-intent-key';

function keys() {
  let n = 0;
  return new IntentKeys(() => `k${++n}`);
}

describe('IntentKeys', () => {
  it('reuses the key while the outcome is unknown', () => {
    const intents = keys();
    expect(intents.keyFor('CODE')).toBe('k1');
    intents.settled(new ApiError(0, 'NETWORK_ERROR'));
    expect(intents.keyFor('CODE')).toBe('k1');
    intents.settled(new ApiError(503, 'INTERNAL_SERVER_ERROR'));
    expect(intents.keyFor('CODE')).toBe('k1');
  });

  it('starts a new intent after a definite answer', () => {
    const intents = keys();
    expect(intents.keyFor(undefined)).toBe('k1');
    intents.settled(null);
    expect(intents.keyFor(undefined)).toBe('k2');
    intents.settled(new ApiError(400, 'NO_INVITE_BONUS'));
    expect(intents.keyFor(undefined)).toBe('k3');
  });

  it('starts a new intent for another input', () => {
    const intents = keys();
    expect(intents.keyFor({ link: 'a' })).toBe('k1');
    intents.settled(new ApiError(0, 'TIMEOUT'));
    expect(intents.keyFor({ link: 'b' })).toBe('k2');
  });
});
