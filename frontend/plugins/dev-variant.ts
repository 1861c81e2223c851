/**
 * `vite dev` only: the document the dev server hands out names the Lao variant when the dev
 * server runs with PAO_LAO_MODE=1, as the backend's does for the built app (src/lib/variant.ts).
 * The build is never touched: the server that serves it decides the variant at its start.
 */
import type { Plugin } from 'vite';
import { VARIANT_META } from '../src/lib/variant';

export function devVariant(laoMode = process.env.PAO_LAO_MODE): Plugin {
  return {
    name: 'pao-dev-variant',
    apply: 'serve',
    transformIndexHtml(html) {
      if (!['1', 'true'].includes(laoMode ?? '')) return html;
      return html
        .replace('<html lang="th">', '<html lang="lo">')
        .replace('<head>', `<head>\n    <meta name="${VARIANT_META}" content="la" />`);
    },
  };
}
