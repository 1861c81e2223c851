/**
 * Site lookups shared by several features (GET /api/lookup/*). Each has one queryOptions factory
 * so every screen shares the same cache entry.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const LONG = 5 * 60_000;

export const lookupQueries = {
  banks: () =>
    queryOptions({
      queryKey: ['lookup', 'banks'],
      queryFn: () => api.get('/api/lookup/banks'),
      staleTime: LONG,
    }),
  /** Texts in the member's language (the server falls back to its default locale). */
  sources: (lang: string) =>
    queryOptions({
      queryKey: ['lookup', 'sources', lang],
      queryFn: () => api.get('/api/lookup/sources', { query: { lang } }),
      staleTime: LONG,
    }),
  info: () =>
    queryOptions({
      queryKey: ['lookup', 'info'],
      queryFn: () => api.get('/api/lookup/info'),
      staleTime: LONG,
    }),
  /**
   * Whether the site is closed (the one call that still answers when it is). Fresh for a few
   * seconds, so the answer fetched while /login starts serves its guard's first check.
   */
  active: () =>
    queryOptions({
      queryKey: ['lookup', 'active'],
      queryFn: () => api.get('/api/lookup/active'),
      staleTime: 5_000,
    }),
  registerOtp: () =>
    queryOptions({
      queryKey: ['lookup', 'registerOTP'],
      queryFn: () => api.get('/api/lookup/registerOTP'),
      staleTime: 0,
    }),
};
