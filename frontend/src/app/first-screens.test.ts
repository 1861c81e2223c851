import { writeFileSync } from 'node:fs';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FRONT_CARD_ARTWORK } from '@/features/games/carousels';
import { paths } from '@/lib/paths';
import firstScreens from './first-screens.json';
import type { Page } from './lazy-page';
import { pagesAt } from './router';

import type { Artwork } from '@/lib/early-requests';

type FirstScreen = { modules: string[]; strings: string[]; data: string[]; artwork: Artwork[]; login: boolean };

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The URLs the pages' prefetches ask for: index.html starts them itself (lib/early-requests.ts). */
async function dataOf(pages: Page[]): Promise<string[]> {
  const urls: string[] = [];
  vi.stubGlobal('fetch', (url: string) => {
    urls.push(url);
    return Promise.resolve(new Response('null'));
  });
  const client = new QueryClient();
  for (const page of pages) page.prefetch(client);
  await vi.waitFor(() => expect(client.isFetching()).toBe(0));
  client.clear();
  return [...new Set(urls)];
}

const everyPath = (tree: object): string[] =>
  Object.values(tree).flatMap((value: unknown) => (typeof value === 'string' ? [value] : everyPath(value as object)));

// These only redirect: what to preload is decided by where they lead.
const REDIRECTS: string[] = [paths.root, paths.user.root];

/** What pagesAt says each path opens first, in the shape the build reads. */
async function expected(): Promise<Record<string, FirstScreen>> {
  const screens = everyPath(paths).filter((path) => !REDIRECTS.includes(path));
  const entries: [string, FirstScreen][] = [];
  for (const path of screens) {
    const pages = pagesAt(path, true);
    entries.push([
      path,
      {
        modules: pages.map((page) => page.module),
        strings: [...new Set(pages.flatMap((page) => page.strings))],
        data: await dataOf(pages),
        artwork: pages.flatMap((page) => page.artwork),
        login: pagesAt(path, false).length === 0,
      },
    ]);
  }
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

describe('first-screens.json (what index.html preloads for the URL being opened)', () => {
  it('matches the route table', async () => {
    const want = await expected();
    // After a change of the route table: WRITE_FIRST_SCREENS=1 npx vitest run first-screens
    if (process.env.WRITE_FIRST_SCREENS) {
      writeFileSync(new URL('./first-screens.json', import.meta.url), `${JSON.stringify(want, null, 2)}\n`);
    }
    expect(firstScreens, 'first-screens.json is out of step with the route table').toEqual(want);
  });

  it('needs a stored session for the member screens only', () => {
    expect(firstScreens['/login']).toMatchObject({
      login: false,
      modules: ['src/app/routes/public-shell.tsx', 'src/app/routes/login.tsx'],
      data: ['/api/lookup/info', '/api/lookup/active'],
    });
    expect(firstScreens['/user/home']).toMatchObject({
      login: true,
      strings: ['member'],
      data: ['/api/lookup/info', '/api/wallet', '/api/spinwheel/active', '/api/protection'],
      artwork: [FRONT_CARD_ARTWORK],
    });
  });

  it('takes artwork only from answers index.html asks for', () => {
    for (const [path, screen] of Object.entries(firstScreens)) {
      for (const rule of screen.artwork) expect(screen.data, path).toContain(rule.data);
    }
  });
});
