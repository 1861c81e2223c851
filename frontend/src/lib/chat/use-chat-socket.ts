/**
 * The chat socket (spec §4 Chat, §7), shared by the player's widget and the staff inboxes:
 * socket.io at /socket.io with the caller's credentials in the handshake, reconnect delay 500 ms
 * with unlimited attempts, `join` on every (re)connect, and a 5 s check that reconnects a socket
 * left disconnected. Agents also hear `read` and `assigned`. Loaded only with a chat screen.
 */
import { useEffect, useRef, useState } from 'react';
import { io, type Socket } from 'socket.io-client';
import { RECONNECT_DELAY_MS, REJOIN_MS, type WireMessage } from './types';

export type AssignedEvent = {
  conversationId: string;
  assignedStaffId: string | null;
  assignedName: string | null;
  assignedAt: string | null;
};

export type SocketAuth = { token: string } | { guestId: string } | { agentToken: string };

type Options = {
  auth: SocketAuth | null;
  /** The room to join (customers); agents are placed in theirs by the server. */
  room?: string | null;
  onMessage: (message: WireMessage) => void;
  onRead?: (event: { conversationId: string; by: string }) => void;
  /** Agents only: a conversation changed hands (the back office's inbox). */
  onAssigned?: (event: AssignedEvent) => void;
  /** After a reconnect: reload what may have been missed. */
  onReconnect?: () => void;
};

export function useChatSocket({ auth, room, onMessage, onRead, onAssigned, onReconnect }: Options): boolean {
  const [connected, setConnected] = useState(false);
  const handlers = useRef({ onMessage, onRead, onAssigned, onReconnect });
  useEffect(() => {
    handlers.current = { onMessage, onRead, onAssigned, onReconnect };
  }, [onMessage, onRead, onAssigned, onReconnect]);
  const authKey = auth ? JSON.stringify(auth) : null;

  useEffect(() => {
    if (!authKey) return undefined;
    const socket: Socket = io({
      path: '/socket.io',
      auth: JSON.parse(authKey) as SocketAuth,
      reconnection: true,
      reconnectionDelay: RECONNECT_DELAY_MS,
      reconnectionAttempts: Infinity,
    });
    let connectedBefore = false;
    socket.on('connect', () => {
      setConnected(true);
      if (room) socket.emit('join', room);
      if (connectedBefore) handlers.current.onReconnect?.();
      connectedBefore = true;
    });
    socket.on('disconnect', () => setConnected(false));
    socket.on('messaging', (message: WireMessage) => handlers.current.onMessage(message));
    socket.on('read', (event: { conversationId: string; by: string }) => handlers.current.onRead?.(event));
    socket.on('assigned', (event: AssignedEvent) => handlers.current.onAssigned?.(event));
    const check = window.setInterval(() => {
      if (!socket.connected) socket.connect();
    }, REJOIN_MS);
    return () => {
      window.clearInterval(check);
      socket.removeAllListeners();
      socket.disconnect();
    };
  }, [authKey, room]);

  return connected;
}
