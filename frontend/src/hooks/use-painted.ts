/**
 * Whether the browser has painted the screen since `shown` became true. Home renders its game
 * carousels only then: the balance, the screen's main content, reaches a cheap phone's screen
 * first instead of waiting for sixteen cards and their artwork to be laid out with it.
 */
import { startTransition, useEffect, useState } from 'react';

export function usePainted(shown: boolean): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!shown || painted) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A frame callback runs just before the next paint, and a task queued from it after that
    // paint's main-thread work, but the frame may not be on screen yet (the compositor presents it
    // later): waiting for the frame after it makes sure it is. As a transition, what the change
    // renders is rendered in slices, not one long task.
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        timer = setTimeout(() => startTransition(() => setPainted(true)));
      });
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [shown, painted]);
  return painted;
}
