import { describe, expect, it } from 'vitest';
import { changedFields } from './Changes';

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
