/**
 * Entry: fonts and styles; then the strings, the chunks and the main data of the screen being
 * opened, all fetched together rather than one after the other; then the app.
 */
// Only the Thai and Lao glyphs; Latin text is set in the phone's own UI font (styles/fonts.css).
import './styles/fonts.css';
import './styles/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { pagesAt } from './app/router';
import { initI18n } from './lib/i18n';
import { createQueryClient } from './lib/query-client';
import { getToken } from './lib/storage';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');

const queryClient = createQueryClient();
const pages = pagesAt(window.location.pathname, getToken() !== null);
const strings = initI18n(pages.flatMap((page) => page.strings));
// A chunk that fails here fails again, visibly, when its route renders.
const screens = pages.map((page) => page.load().catch(() => undefined));
for (const page of pages) page.prefetch(queryClient);

// The first render waits for the screen's modules too (they download with the strings): it then
// paints the screen in one go, without a fallback first (app/lazy-page.ts).
void Promise.all([strings, ...screens]).then(() => {
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  );
});
