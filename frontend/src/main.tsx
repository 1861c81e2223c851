/**
 * Entry: fonts and styles; then the strings, the chunks and the main data of the screen being
 * opened, all fetched together rather than one after the other; then the app.
 */
import '@fontsource/noto-sans-thai/400.css';
import '@fontsource/noto-sans-thai/700.css';
import '@fontsource/noto-sans-lao/400.css';
import '@fontsource/noto-sans-lao/700.css';
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
const ready = initI18n(pages.flatMap((page) => page.strings));
for (const page of pages) {
  // A chunk that fails here fails again, visibly, when its route renders.
  page.load().catch(() => undefined);
  page.prefetch(queryClient);
}

void ready.then(() => {
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  );
});
