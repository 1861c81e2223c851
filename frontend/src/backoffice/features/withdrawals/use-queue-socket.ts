/**
 * The queue's live updates: a socket.io connection with the staff token (the server puts staff
 * holding withdrawals.read in the `backoffice:withdrawals` room and refuses anyone else), which
 * refreshes the queue and the open detail on `withdrawal:new` and `withdrawal:updated`, and after
 * a reconnect (what was missed meanwhile).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { io } from 'socket.io-client';
import { getStaffToken } from '../../lib/session';
import { WITHDRAWALS_KEY } from './withdrawals-query';

export type NewWithdrawal = { id: number; memberId: number; amount: number; currency: 'THB' | 'LAK' };

const RECONNECT_DELAY_MS = 1_000;

export function useQueueSocket(onNew: (event: NewWithdrawal) => void): boolean {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);
  const onNewRef = useRef(onNew);
  useEffect(() => {
    onNewRef.current = onNew;
  }, [onNew]);

  useEffect(() => {
    const token = getStaffToken();
    if (!token) return undefined;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: WITHDRAWALS_KEY });
    const socket = io({
      path: '/socket.io',
      auth: { staffToken: token },
      transports: ['websocket', 'polling'],
      reconnectionDelay: RECONNECT_DELAY_MS,
    });
    let connectedBefore = false;
    socket.on('connect', () => {
      setConnected(true);
      if (connectedBefore) refresh();
      connectedBefore = true;
    });
    socket.on('disconnect', () => setConnected(false));
    socket.on('withdrawal:new', (event: NewWithdrawal) => {
      refresh();
      onNewRef.current(event);
    });
    socket.on('withdrawal:updated', refresh);
    return () => {
      socket.removeAllListeners();
      socket.disconnect();
    };
  }, [queryClient]);

  return connected;
}
