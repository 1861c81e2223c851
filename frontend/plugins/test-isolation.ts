/**
 * Which unit tests need a module registry of their own. Isolating every test file (vitest's
 * default) re-imports the app's modules for each of the ≈ 60 files: 21 s of a 26 s run, where the
 * tests themselves took 3. Only a file that replaces a module or a global (`vi.mock`,
 * `vi.stubGlobal`, …) needs that: decided by reading each file, so a new test that mocks is
 * isolated without anyone listing it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const TEST_FILE = /\.test\.tsx?$/;
const REPLACES_MODULES_OR_GLOBALS = /\bvi\.(mock|doMock|unmock|doUnmock|stubGlobal|stubEnv|resetModules|hoisted)\b/;

/** The test files under `dirs` (relative to `root`) that mock a module or stub a global. */
export function testsNeedingIsolation(root: string, dirs: string[]): string[] {
  return dirs.flatMap((dir) =>
    (readdirSync(join(root, dir), { recursive: true }) as string[])
      .filter((name) => TEST_FILE.test(name))
      .map((name) => join(root, dir, name))
      .filter((path) => REPLACES_MODULES_OR_GLOBALS.test(readFileSync(path, 'utf8')))
      .map((path) => relative(root, path)),
  );
}
