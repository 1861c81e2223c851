/** The wheel's size (spec §9): at most 350 px and at most 85 % of the window width, recomputed
 * 500 ms after the last resize. */
import { useEffect, useState } from 'react';

export const WHEEL_MAX_PX = 350;
export const WHEEL_WINDOW_SHARE = 0.85;
export const RESIZE_DEBOUNCE_MS = 500;

export function wheelSize(windowWidth: number): number {
  return Math.floor(Math.min(WHEEL_MAX_PX, windowWidth * WHEEL_WINDOW_SHARE));
}

export function useWheelSize(): number {
  const [size, setSize] = useState(() => wheelSize(window.innerWidth));
  useEffect(() => {
    let timer: number | undefined;
    const onResize = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setSize(wheelSize(window.innerWidth)), RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener('resize', onResize);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return size;
}
