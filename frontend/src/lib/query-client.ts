/** The React Query client: API errors are final (no retry), network hiccups retry once. */
import { QueryClient } from '@tanstack/react-query';
import { ApiError, NETWORK_ERROR } from './errors';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, error) =>
          count < 1 && (!(error instanceof ApiError) || error.code === NETWORK_ERROR),
      },
      mutations: { retry: false },
    },
  });
}
