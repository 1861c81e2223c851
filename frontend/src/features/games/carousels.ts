/**
 * The home screen's game carousels, in order, and the artwork of the card a phone's first screen
 * shows (the front card of the first carousel). Its own small module: the route table imports the
 * artwork rule, and must not pull the games feature into the entry chunk with it.
 */
import type { Artwork } from '@/lib/early-requests';

/** One carousel per category, in this order; 'sport' holds sport and casino (spec §2). */
export const CATEGORIES = ['slot', 'sport', 'lotto'] as const;

/** The front card of the first carousel: the first game of its category in GET /api/wallet. */
export const FRONT_CARD_ARTWORK: Artwork = {
  data: '/api/wallet',
  list: 'slots',
  where: { category: CATEGORIES[0] },
  fields: ['background', 'logo'],
};
