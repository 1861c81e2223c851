/**
 * The React Query client: API errors are final (no retry), network hiccups retry once. A switch
 * of language marks every answer stale: operator texts (bonuses, banners, the wheel, statement
 * notes) come from the server in the language asked for (lib/api-client.ts).
 */
import { QueryClient } from '@tanstack/react-query';
import { ApiError, NETWORK_ERROR } from './errors';
import { i18n } from './i18n';

export function createQueryClient(): QueryClient {
  const client = new QueryClient({
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
  // Only a switch: i18next also reports the first language it starts with.
  let shown: string | undefined = i18n.language;
  i18n.on('languageChanged', (language: string) => {
    if (shown && language !== shown) void client.invalidateQueries();
    shown = language;
  });
  return client;
}
