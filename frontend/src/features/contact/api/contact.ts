import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Contact info (GET /api/lookup/contact): HTML text, LINE link, name and QR image. */
export const contactQuery = (lang: string) =>
  queryOptions({
    queryKey: ['lookup', 'contact', lang],
    queryFn: () => api.get('/api/lookup/contact', { query: { lang } }),
    staleTime: 5 * 60_000,
  });
