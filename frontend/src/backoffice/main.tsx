/**
 * Entry of the back office (backoffice.html, served for /backoffice and below): the player app's
 * stylesheet and shared components under the back office's own light theme, its strings, then
 * the app. Nothing here is imported by the player's entry (scripts/check-bundle.mjs proves it).
 */
import '../styles/fonts.css';
import '../styles/app.css';
import themeUrl from './backoffice.css?url';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from '@/lib/query-client';
import { App } from './App';
import { initBackOfficeI18n } from './i18n';

// A stylesheet file of its own rather than a part of the app's one stylesheet, which the player's
// pages load too; linked, not inlined, because the Content-Security-Policy allows no inline
// style (backend/src/pao/core/security_headers.py).
const theme = document.createElement('link');
theme.rel = 'stylesheet';
theme.href = themeUrl;
document.head.append(theme);

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');

const queryClient = createQueryClient();
void initBackOfficeI18n().then(() => {
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  );
});
