import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The how-to videos from settings: [{key, url}] (GET /api/lookup/howto). */
export const howtoQuery = () =>
  queryOptions({
    queryKey: ['lookup', 'howto'],
    queryFn: () => api.get('/api/lookup/howto'),
    staleTime: 5 * 60_000,
  });
