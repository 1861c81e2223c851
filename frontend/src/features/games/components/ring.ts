/** The game carousel's ring (GameCarousel): where each card stands, pure so that it is unit-tested. */

/**
 * A card's place from the front one. With three games or more the cards form a ring (the spec's
 * 3D carousel): the last game sits left of the first, so three cards show wherever the ring
 * stands; with fewer it is a row.
 */
export function ringOffset(index: number, active: number, count: number): number {
  const offset = index - active;
  if (count < 3) return offset;
  const half = Math.floor(count / 2);
  return ((((offset + half) % count) + count) % count) - half;
}
