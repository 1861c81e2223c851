/**
 * Who is signed in: `GET me` (with the permissions the navigation is built from), and the
 * session's end. Any answer meaning "no session" (401: revoked, expired, ended at the lock
 * screen) clears the staff token and sends the browser to the login screen; an idle session is
 * locked instead (423, lib/lock.ts), not ended.
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { onErrorRoute } from '@/lib/api-client';
import { boApi } from './api';
import type { Me } from './permissions';
import { forgetLock } from './lock';
import { clearStaffToken, getStaffToken } from './session';

export const meQuery = () =>
  queryOptions({
    queryKey: ['bo', 'me'],
    queryFn: ({ signal }) => boApi.get('/api/backoffice/me', { signal }),
    staleTime: 60_000,
  });

/** The signed-in staff member, or undefined while loading or without a session (`enabled`:
 * false while the session is locked: no call would be answered). */
export function useMe(enabled = true): { me: Me | undefined; loading: boolean } {
  const hasToken = getStaffToken() !== null;
  const query = useQuery({ ...meQuery(), enabled: hasToken && enabled });
  return { me: hasToken ? query.data : undefined, loading: hasToken && query.isPending };
}

/** Where the login screen sends a staff member who signed in with no page in mind. */
export const LOGIN_PATH = '/login';

export type LoginState = { ended?: boolean; from?: string };

/** Ends the session in the browser (the server's is ended by the caller, or already over). */
export function useForgetSession(): (state?: LoginState) => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    (state?: LoginState) => {
      clearStaffToken();
      forgetLock();
      queryClient.clear();
      void navigate(LOGIN_PATH, { replace: true, state });
    },
    [navigate, queryClient],
  );
}

/** Routes a 401 of any back-office call to the login screen, saying the session ended. */
export function SessionEndBridge() {
  const forget = useForgetSession();
  useEffect(() => {
    onErrorRoute(() => {
      if (getStaffToken() === null) return;
      const here = window.location.pathname.replace(/^\/backoffice/, '') + window.location.search;
      forget({ ended: true, from: here });
    });
    return () => onErrorRoute(null);
  }, [forget]);
  return null;
}

/** Logs out on the server (best effort: the session may have ended already) and here. */
export function useLogout(): () => Promise<void> {
  const forget = useForgetSession();
  return useCallback(async () => {
    try {
      await boApi.post('/api/backoffice/auth/logout');
    } catch {
      // Already over on the server: nothing more to end.
    }
    forget();
  }, [forget]);
}
