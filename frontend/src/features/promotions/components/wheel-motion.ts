/**
 * The wheel's motion (spec §9): friction .991 per physics step, 4–5 s, 2–3 extra turns, landing
 * on the slice the server chose. The speed decays geometrically (v ← v × .991 each step); the
 * step rate is chosen so the spin lasts the drawn duration, and the start speed so the sum of
 * the steps is exactly the distance to the target.
 */
export const FRICTION = 0.991;
export const MIN_DURATION_MS = 4000;
export const MAX_DURATION_MS = 5000;
export const MIN_EXTRA_TURNS = 2;
export const MAX_EXTRA_TURNS = 3;
/** The speed at the end, as a share of the start speed (the wheel visibly comes to rest). */
const END_SPEED_SHARE = 0.01;
const STEPS = Math.ceil(Math.log(END_SPEED_SHARE) / Math.log(FRICTION));

const TAU = Math.PI * 2;

/** Rotation (radians, clockwise) that puts the middle of slice `index` under the top pointer. */
export function restingAngle(index: number, count: number): number {
  const segment = TAU / count;
  return (((TAU - (index + 0.5) * segment) % TAU) + TAU) % TAU;
}

export type Motion = { from: number; to: number; durationMs: number };

export function planSpin(current: number, index: number, count: number, random: () => number = Math.random): Motion {
  const turns = MIN_EXTRA_TURNS + Math.floor(random() * (MAX_EXTRA_TURNS - MIN_EXTRA_TURNS + 1));
  const durationMs = MIN_DURATION_MS + random() * (MAX_DURATION_MS - MIN_DURATION_MS);
  const base = current % TAU;
  let delta = restingAngle(index, count) - base;
  if (delta < 0) delta += TAU;
  return { from: current, to: current + delta + turns * TAU, durationMs };
}

/** Position at `elapsed` ms: the geometric (friction) decay, normalised to end on `to`. */
export function angleAt(motion: Motion, elapsed: number): number {
  if (elapsed >= motion.durationMs) return motion.to;
  const steps = (elapsed / motion.durationMs) * STEPS;
  const travelled = (1 - FRICTION ** steps) / (1 - FRICTION ** STEPS);
  return motion.from + (motion.to - motion.from) * travelled;
}
