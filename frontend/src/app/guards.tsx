/** Route guards of spec §2. */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { lookupQueries } from '@/api/lookups';
import { endSession } from '@/features/auth/api/logout';
import { loginWithRedirect, paths } from '@/lib/paths';
import { getToken } from '@/lib/storage';

/** A login-required route with no stored token goes to /login, carrying the wanted URL. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (!getToken()) {
    return <Navigate to={loginWithRedirect(location.pathname + location.search)} replace />;
  }
  return children;
}

/**
 * On /login: ask whether the site is closed ('gone' → /terminated), else clear the body style
 * left by a modal. Opening /login or /register with a token ends that stored session.
 */
export function useEntryGuard(kind: 'login' | 'register'): void {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Runs once before the first paint of the screen, not in an effect, so nothing below sees the
  // old token.
  useState(() => {
    if (getToken()) {
      void endSession();
      queryClient.clear();
    }
    return null;
  });
  useEffect(() => {
    if (kind !== 'login') return;
    let live = true;
    queryClient
      .fetchQuery(lookupQueries.active())
      .then(({ terminated }) => {
        if (!live) return;
        if (terminated) void navigate(paths.terminated, { replace: true });
        else {
          document.body.removeAttribute('style');
          document.body.classList.remove('scroll-locked');
        }
      })
      .catch(() => undefined); // 'gone' is routed by the API client; other failures keep the page
    return () => {
      live = false;
    };
  }, [kind, navigate, queryClient]);
}
