/** A horizontal swipe on a carousel (the home hero, the game cards): a finger moved further
 * than SWIPE_PX to the right goes back, to the left goes on. */
import { useRef, type TouchEvent } from 'react';

const SWIPE_PX = 40;

export function useSwipe(onBack: () => void, onOn: () => void) {
  const startX = useRef<number | null>(null);
  return {
    onTouchStart: (event: TouchEvent) => {
      startX.current = event.touches[0]?.clientX ?? null;
    },
    onTouchEnd: (event: TouchEvent) => {
      const start = startX.current;
      const end = event.changedTouches[0]?.clientX;
      startX.current = null;
      if (start === null || end === undefined) return;
      if (end - start > SWIPE_PX) onBack();
      else if (start - end > SWIPE_PX) onOn();
    },
  };
}
