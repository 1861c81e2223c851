/**
 * The queue's attention signal in the browser (the rules are attention.ts): the waiting count in
 * the tab title while the queue is open, a short chime on arrivals unless muted (Web Audio: no
 * file to load; browsers let it sound once the page has had a click or a key), the new rows'
 * highlight, and desktop notifications once the cashier opted in (the permission is asked from
 * that click, never on load).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { HIGHLIGHT_MS, highlighted, isMuted, setMuted, setWantsNotifications, shouldNotify, titleWithCount, wantsNotifications } from './attention';

type Permission = NotificationPermission | 'unsupported';

function permissionNow(): Permission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

let audio: AudioContext | null = null;

/** Two short rising tones, quiet: noticed over a shift, not startling. */
function chime(): void {
  const audible = window as unknown as { AudioContext?: typeof AudioContext; webkitAudioContext?: typeof AudioContext };
  const Context = audible.AudioContext ?? audible.webkitAudioContext;
  if (!Context) return;
  audio ??= new Context();
  const ctx = audio;
  if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
  const start = ctx.currentTime;
  for (const [i, frequency] of [880, 1320].entries()) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'sine';
    osc.frequency.value = frequency;
    const at = start + i * 0.16;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.15);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at);
    osc.stop(at + 0.16);
  }
}

export type Attention = {
  muted: boolean;
  toggleMuted: () => void;
  notifications: { wanted: boolean; permission: Permission };
  /** From a click: ask the browser's permission, then remember the choice. */
  toggleNotifications: () => void;
  /** The ids to highlight now. */
  fresh: Set<number>;
  /** New withdrawals arrived: sound, highlight, notify. */
  arrived: (ids: number[], text: string) => void;
};

/** `waiting`: the count for the tab title; `title`: the page's name. */
export function useAttention(waiting: number | undefined, title: string): Attention {
  const [muted, setMutedState] = useState(isMuted);
  const [wanted, setWanted] = useState(wantsNotifications);
  const [permission, setPermission] = useState<Permission>(permissionNow);
  const [arrivals, setArrivals] = useState<Map<number, number>>(() => new Map());
  const [now, setNow] = useState(() => Date.now());
  const state = useRef({ muted, wanted, permission });
  useEffect(() => {
    state.current = { muted, wanted, permission };
  }, [muted, wanted, permission]);

  useEffect(() => {
    const before = document.title;
    document.title = titleWithCount(waiting ?? 0, title);
    return () => {
      document.title = before;
    };
  }, [waiting, title]);

  // Unlock the audio on the first gesture, so that the first arrival is heard.
  useEffect(() => {
    const unlock = () => {
      if (audio?.state === 'suspended') void audio.resume().catch(() => undefined);
    };
    window.addEventListener('pointerdown', unlock);
    window.addEventListener('keydown', unlock);
    return () => {
      window.removeEventListener('pointerdown', unlock);
      window.removeEventListener('keydown', unlock);
    };
  }, []);

  // The highlight ends by itself: one timer for the oldest still lit.
  useEffect(() => {
    const lit = [...arrivals.values()].filter((at) => now - at < HIGHLIGHT_MS);
    if (lit.length === 0) return undefined;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(50, Math.min(...lit) + HIGHLIGHT_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [arrivals, now]);

  const arrived = useCallback((ids: number[], text: string) => {
    const at = Date.now();
    setArrivals((previous) => {
      const next = new Map([...previous].filter(([, when]) => at - when < HIGHLIGHT_MS));
      for (const id of ids) next.set(id, at);
      return next;
    });
    setNow(at);
    const { muted: silent, wanted: asked, permission: allowed } = state.current;
    if (!silent) {
      try {
        chime();
      } catch {
        // No audio device: the title and the highlight still say it.
      }
    }
    if (shouldNotify({ wanted: asked, permission: allowed, visible: document.visibilityState === 'visible' && document.hasFocus() })) {
      const notification = new Notification(document.title, { body: text, tag: 'pao-withdrawals' });
      notification.onclick = () => {
        window.focus();
        notification.close();
      };
    }
  }, []);

  const toggleMuted = useCallback(() => {
    setMutedState((was) => {
      setMuted(!was);
      return !was;
    });
  }, []);

  const toggleNotifications = useCallback(() => {
    if (wanted) {
      setWantsNotifications(false);
      setWanted(false);
      return;
    }
    if (typeof Notification === 'undefined') return;
    void Notification.requestPermission().then((answer) => {
      setPermission(answer);
      const yes = answer === 'granted';
      setWantsNotifications(yes);
      setWanted(yes);
    });
  }, [wanted]);

  return {
    muted,
    toggleMuted,
    notifications: { wanted, permission },
    toggleNotifications,
    fresh: highlighted(arrivals, now),
    arrived,
  };
}
