/** App-wide providers: React Query, toasts, and the bridge from API errors to navigation. */
import { QueryClientProvider, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { BrowserRouter, useNavigate } from 'react-router';
import { ToastProvider } from '@/components/ui/Toast';
import { onErrorRoute } from '@/lib/api-client';
import { loginWithRedirect, paths } from '@/lib/paths';
import { clearSession } from '@/lib/storage';

/** 'gone' → /terminated; an ended session → /login carrying the current URL (spec §8). */
function ErrorRouteBridge() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    onErrorRoute((route) => {
      if (route === 'terminated') {
        void navigate(paths.terminated, { replace: true });
        return;
      }
      clearSession();
      queryClient.clear();
      // Several requests in flight end with the session: the first one's answer already took
      // the member to /login with where they were; a later one must not drop that.
      if (window.location.pathname === paths.login) return;
      const here = window.location.pathname + window.location.search;
      void navigate(here.startsWith(paths.user.root) ? loginWithRedirect(here) : paths.login, {
        replace: true,
      });
    });
    return () => onErrorRoute(null);
  }, [navigate, queryClient]);
  return null;
}

/** `queryClient` comes from main.tsx, which starts the first screen's queries before rendering. */
export function AppProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <ToastProvider>
          <ErrorRouteBridge />
          {children}
        </ToastProvider>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
