/**
 * The queue's live updates: a socket.io connection with the staff token (the server puts staff
 * holding withdrawals.read in the `backoffice:withdrawals` room and refuses anyone else). Each
 * `withdrawals:changed` batch refreshes the queue and the open detail, throttled to one refresh
 * a second with the new withdrawals reported together (queue-updates); a reconnect refreshes at
 * once (what was missed meanwhile).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { io } from 'socket.io-client';
import { getStaffToken } from '../../lib/session';
import { createQueueUpdates, type NewWithdrawal, type QueueBatch } from './queue-updates';
import { WITHDRAWALS_KEY } from './withdrawals-query';

const RECONNECT_DELAY_MS = 1_000;

/** `onNew` gets the withdrawals that arrived since the last refresh, once per refresh. */
export function useQueueSocket(onNew: (items: NewWithdrawal[]) => void): boolean {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);
  const onNewRef = useRef(onNew);
  useEffect(() => {
    onNewRef.current = onNew;
  }, [onNew]);

  useEffect(() => {
    const token = getStaffToken();
    if (!token) return undefined;
    const updates = createQueueUpdates(
      () => void queryClient.invalidateQueries({ queryKey: WITHDRAWALS_KEY }),
      (items) => onNewRef.current(items),
    );
    const socket = io({
      path: '/socket.io',
      auth: { staffToken: token },
      transports: ['websocket', 'polling'],
      reconnectionDelay: RECONNECT_DELAY_MS,
    });
    let connectedBefore = false;
    socket.on('connect', () => {
      setConnected(true);
      if (connectedBefore) updates.refreshNow();
      connectedBefore = true;
    });
    socket.on('disconnect', () => setConnected(false));
    socket.on('withdrawals:changed', (batch: QueueBatch) => updates.receive(batch));
    return () => {
      updates.stop();
      socket.removeAllListeners();
      socket.disconnect();
    };
  }, [queryClient]);

  return connected;
}
