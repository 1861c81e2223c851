import { useQuery } from '@tanstack/react-query';
import { lookupQueries } from '@/api/lookups';
import { env } from '@/lib/env';

/** The operator's product name from the info lookup; the build-time name until it answers. */
export function useAppName(): string {
  const info = useQuery({ ...lookupQueries.info(), retry: false });
  return info.data?.name || env.appName;
}
