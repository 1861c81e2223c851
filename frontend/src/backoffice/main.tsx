/**
 * Entry of the back office (backoffice.html, served for /backoffice and below): the player app's
 * stylesheet and shared components under the back office's own light theme, its strings, then
 * the app. Nothing here is imported by the player's entry (scripts/check-bundle.mjs proves it).
 */
import '../styles/fonts.css';
import '../styles/app.css';
import themeCss from './backoffice.css?inline';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from '@/lib/query-client';
import { App } from './App';
import { initBackOfficeI18n } from './i18n';

// Inlined into this entry's script rather than added to the app's one stylesheet, which the
// player's pages load too.
const theme = document.createElement('style');
theme.textContent = themeCss;
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
