/**
 * Locks the back office after the server's idle minutes without a human in any tab (pointer,
 * key, wheel, touch): it asks the server to lock the session (audited as idle), then shows the
 * lock screen (lib/lock.ts). The server locks an unused session by itself too; while a human is
 * active the page keeps the server's session in use (a `me` call every few minutes), so that
 * reading one screen for half an hour does not lock it on the server alone.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { CHECK_EVERY_MS, isIdle, RECORD_EVERY_MS, shouldKeepAlive } from '../../lib/idle';
import { boApi } from '../../lib/api';
import { meQuery } from '../../lib/auth';
import { lastActivity, markLocked, recordActivity } from '../../lib/lock';

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'] as const;

export function useIdleLock(idleMinutes: number): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let recorded = 0;
    let keptAlive = Date.now();
    recordActivity(Date.now());
    const onActivity = () => {
      const now = Date.now();
      if (now - recorded < RECORD_EVERY_MS) return;
      recorded = now;
      recordActivity(now);
    };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true });
    const timer = setInterval(() => {
      const now = Date.now();
      const last = lastActivity() ?? now;
      if (isIdle(now, last, idleMinutes)) {
        markLocked();
        // Best effort: the server locks an unused session by itself anyway.
        void boApi.post('/api/backoffice/auth/lock', undefined, { query: { idle: 'true' } }).catch(() => undefined);
        return;
      }
      if (shouldKeepAlive(now, last, keptAlive)) {
        keptAlive = now;
        void queryClient.fetchQuery({ ...meQuery(), staleTime: 0 }).catch(() => undefined);
      }
    }, CHECK_EVERY_MS);
    return () => {
      clearInterval(timer);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity);
    };
  }, [idleMinutes, queryClient]);
}
