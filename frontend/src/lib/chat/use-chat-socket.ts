/**
 * The chat socket (spec §4 Chat, §7), shared by the player's widget and the staff inboxes:
 * socket.io at /socket.io with the caller's credentials in the handshake, reconnect delay 500 ms
 * with unlimited attempts, `join` on every (re)connect, and a 5 s check that reconnects a socket
 * left disconnected. Agents also hear `read` and `assigned`. Loaded only with a chat screen.
 *
 * The server sends a message only to the sockets in its room at that moment: whatever was stored
 * before this socket joined (a bot's answer to a message sent while a slow phone was still
 * connecting, anything said during a reconnect) never comes live. So the socket counts as
 * connected only once the server acknowledged the join, and `onJoin` runs after every join, the
 * first included, for the screen to reload what it may have missed.
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
  /** After every join (agents: every connect), the first included: reload what was missed. */
  onJoin?: () => void;
};

/** The server's answer to `join`. */
type JoinAck = { ok: boolean; message?: string };

/** True once the socket is in its room (agents: connected), false again when it drops. */
export function useChatSocket({ auth, room, onMessage, onRead, onAssigned, onJoin }: Options): boolean {
  const [connected, setConnected] = useState(false);
  const handlers = useRef({ onMessage, onRead, onAssigned, onJoin });
  useEffect(() => {
    handlers.current = { onMessage, onRead, onAssigned, onJoin };
  }, [onMessage, onRead, onAssigned, onJoin]);
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
    const joined = () => {
      setConnected(true);
      handlers.current.onJoin?.();
    };
    socket.on('connect', () => {
      if (room) {
        socket.emit('join', room, (ack: JoinAck) => {
          if (ack.ok && socket.connected) joined();
        });
      } else {
        // Agents are put in their room by the server as they connect.
        joined();
      }
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
