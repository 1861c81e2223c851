import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Terms as server HTML blocks (GET /api/lookup/conditions). */
export const conditionsQuery = (lang: string) =>
  queryOptions({
    queryKey: ['lookup', 'conditions', lang],
    queryFn: () => api.get('/api/lookup/conditions', { query: { lang } }),
    staleTime: 5 * 60_000,
  });
