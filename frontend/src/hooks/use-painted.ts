/**
 * Whether the browser has painted the screen since `shown` became true. Home renders its game
 * carousels only then: the balance, the screen's main content, reaches a cheap phone's screen
 * first instead of waiting for sixteen cards and their artwork to be laid out with it.
 */
import { startTransition, useEffect, useState } from 'react';

/**
 * Runs `run` once the next frame is on screen; returns a cancel. A frame callback runs just
 * before the next paint, and a task queued from it after that paint's main-thread work, but the
 * frame may not be on screen yet (the compositor presents it later): waiting for the frame after
 * it makes sure it is.
 */
export function afterPaint(run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let frame = requestAnimationFrame(() => {
    frame = requestAnimationFrame(() => {
      timer = setTimeout(run);
    });
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

export function usePainted(shown: boolean): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!shown || painted) return;
    // As a transition, what the change renders is rendered in slices, not one long task.
    return afterPaint(() => startTransition(() => setPainted(true)));
  }, [shown, painted]);
  return painted;
}

/**
 * How many of `total` parts to draw: one until `start`, then one more after each paint once it
 * is true, so that each part's layout and artwork is a task of its own on a slow phone, not one
 * long task.
 */
export function useOneMorePerPaint(total: number, start: boolean): number {
  const [count, setCount] = useState(1);
  useEffect(() => {
    if (!start || count >= total) return;
    return afterPaint(() => startTransition(() => setCount((n) => n + 1)));
  }, [start, count, total]);
  return count;
}
