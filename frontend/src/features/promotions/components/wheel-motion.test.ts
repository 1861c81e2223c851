import { describe, expect, it } from 'vitest';
import { angleAt, planSpin, restingAngle } from './wheel-motion';
import { wheelSize } from '../hooks/use-wheel-size';

const TAU = Math.PI * 2;

describe('wheel motion', () => {
  it('lands the chosen slice under the pointer after 2 to 3 extra turns', () => {
    for (const [index, count] of [[0, 7], [3, 7], [6, 7], [1, 2]] as const) {
      const motion = planSpin(1.234, index, count);
      const end = ((motion.to % TAU) + TAU) % TAU;
      expect(end).toBeCloseTo(restingAngle(index, count), 9);
      const turns = (motion.to - motion.from) / TAU;
      expect(turns).toBeGreaterThanOrEqual(2);
      expect(turns).toBeLessThan(4);
      expect(motion.durationMs).toBeGreaterThanOrEqual(4000);
      expect(motion.durationMs).toBeLessThanOrEqual(5000);
    }
  });

  it('decelerates monotonically and ends exactly on the target', () => {
    const motion = { from: 0, to: 20, durationMs: 4500 };
    let last = 0;
    let lastStep = Infinity;
    for (let t = 100; t <= 4500; t += 100) {
      const angle = angleAt(motion, t);
      expect(angle).toBeGreaterThan(last);
      expect(angle - last).toBeLessThanOrEqual(lastStep + 1e-9);
      lastStep = angle - last;
      last = angle;
    }
    expect(angleAt(motion, 4500)).toBe(20);
  });

  it('sizes the wheel to at most 350 px and 85 % of the window', () => {
    expect(wheelSize(360)).toBe(306);
    expect(wheelSize(1280)).toBe(350);
  });
});
