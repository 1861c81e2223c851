import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { paths } from '@/lib/paths';
import firstScreens from './first-screens.json';
import { pagesAt } from './router';

type FirstScreen = { modules: string[]; strings: string[]; login: boolean };

const everyPath = (tree: object): string[] =>
  Object.values(tree).flatMap((value: unknown) => (typeof value === 'string' ? [value] : everyPath(value as object)));

// These only redirect: what to preload is decided by where they lead.
const REDIRECTS: string[] = [paths.root, paths.user.root];

/** What pagesAt says each path opens first, in the shape the build reads. */
function expected(): Record<string, FirstScreen> {
  const screens = everyPath(paths).filter((path) => !REDIRECTS.includes(path));
  const entries = screens.map((path): [string, FirstScreen] => {
    const pages = pagesAt(path, true);
    return [
      path,
      {
        modules: pages.map((page) => page.module),
        strings: [...new Set(pages.flatMap((page) => page.strings))],
        login: pagesAt(path, false).length === 0,
      },
    ];
  });
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

describe('first-screens.json (what index.html preloads for the URL being opened)', () => {
  it('matches the route table', () => {
    const want = expected();
    // After a change of the route table: WRITE_FIRST_SCREENS=1 npx vitest run first-screens
    if (process.env.WRITE_FIRST_SCREENS) {
      writeFileSync(new URL('./first-screens.json', import.meta.url), `${JSON.stringify(want, null, 2)}\n`);
    }
    expect(firstScreens, 'first-screens.json is out of step with the route table').toEqual(want);
  });

  it('needs a stored session for the member screens only', () => {
    expect(firstScreens['/login']).toMatchObject({ login: false, modules: ['src/app/routes/public-shell.tsx', 'src/app/routes/login.tsx'] });
    expect(firstScreens['/user/home']).toMatchObject({ login: true, strings: ['member'] });
  });
});
