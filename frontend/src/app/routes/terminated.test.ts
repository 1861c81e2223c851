/** A member parked on /terminated keeps the session when the site reopens (issue 35, §5). */
import { describe, expect, it } from 'vitest';
import { paths } from '@/lib/paths';
import { afterReopening } from './terminated';

describe('leaving /terminated once the site reopened', () => {
  it('takes a member who holds a session back to the app, not to /login (which ends it)', () => {
    expect(afterReopening(true)).toBe(paths.user.home);
  });

  it('takes a visitor without a session to /login', () => {
    expect(afterReopening(false)).toBe(paths.login);
  });
});
