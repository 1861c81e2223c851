import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testsNeedingIsolation } from './test-isolation';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('testsNeedingIsolation', () => {
  const isolated = testsNeedingIsolation(root, ['src', 'plugins']);

  it('isolates a test that mocks a module', () => {
    expect(isolated).toContain('src/app/lazy-page.test.ts');
  });

  it('lets a test that replaces nothing share the registry', () => {
    expect(isolated).not.toContain('src/lib/money.test.ts');
    expect(isolated).not.toContain('plugins/test-isolation.test.ts');
  });
});
