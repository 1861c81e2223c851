/**
 * Where the code that several screens share goes (Rollup's `manualChunks`). Left alone, Rollup
 * gives every small shared module its own chunk (Field, dates, money, …); over HTTP/1.1, with six
 * connections per host, a screen then waits for several rounds of tiny downloads. Instead:
 * - 'vendor': the libraries the entry and the /login screens use (React, router, React Query,
 *   i18next), and 'common': the shared app code they use; the entry imports both, so index.html
 *   preloads them next to it;
 * - 'shared': the rest of src/components, hooks and lib (mostly for the member screens), one
 *   download for all of it.
 * Screens, features and the libraries loaded later (the chat's socket.io) are left to Rollup.
 */
import type { GetModuleInfo } from 'rollup';

const SHARED = /\/src\/(components|hooks|lib)\//;
// The chat's code, shared by the player's chat widget and the back office's inbox, is left to
// Rollup: in 'shared' it would take its socket.io client (≈ 16 KiB gzip) into every member
// screen's first download, where the widget loads it only when opened. The widget is then
// slower to connect after it opens, and may send before its socket is in its room; it reloads
// what it missed after every join (src/lib/chat/use-chat-socket.ts).
const CHAT = /\/src\/(components|hooks|lib)\/chat\//;
// The back office's own code, strings and libraries: only backoffice.html loads them.
const BACK_OFFICE = /\/src\/backoffice\/|\/src\/locales\/\w+\/backoffice\.json$|\/node_modules\/@tanstack\/(react-table|table-core)\//;

/** True when a chunk holds back-office code (its file is then named bo-…). */
export function backOfficeChunk(moduleIds: readonly string[]): boolean {
  return moduleIds.some((id) => BACK_OFFICE.test(id));
}

// The modules /login starts from (scripts/check-bundle.mjs measures the same route).
const LOGIN = /\/src\/(main\.tsx|app\/routes\/(public-shell|login)\.tsx)$/;

/** True when `id` is imported, directly or not, by a module `from` matches. */
function importedFrom(id: string, from: RegExp, getModuleInfo: GetModuleInfo, seen = new Set<string>()): boolean {
  if (from.test(id)) return true;
  if (seen.has(id)) return false;
  seen.add(id);
  const importers = getModuleInfo(id)?.importers ?? [];
  return importers.some((importer) => importedFrom(importer, from, getModuleInfo, seen));
}

export function sharedChunks(id: string, { getModuleInfo }: { getModuleInfo: GetModuleInfo }): string | undefined {
  // Left to Vite: the fonts' CSS would otherwise become a second render-blocking stylesheet.
  if (id.endsWith('.css')) return undefined;
  // Vite's modulepreload polyfill, which both documents run: with the libraries the entry needs
  // first, rather than in a chunk of its own (one request more before /login paints).
  if (id.includes('vite/modulepreload-polyfill')) return 'vendor';
  const forLogin = importedFrom(id, LOGIN, getModuleInfo);
  if (id.includes('/node_modules/')) return forLogin ? 'vendor' : undefined;
  if (!SHARED.test(id) || CHAT.test(id)) return undefined;
  return forLogin ? 'common' : 'shared';
}
