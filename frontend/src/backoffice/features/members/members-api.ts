/** The member screens' queries: the member's page, and what every action refreshes after it. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema.gen';
import { boApi } from '../../lib/api';

export type MemberDetail = components['schemas']['MemberDetail'];
export type MemberRow = components['schemas']['MemberRowOut'];
export type MemberStatus = components['schemas']['MemberStatus'];

export const MEMBERS = ['bo', 'members'] as const;
export const memberKey = (id: number) => [...MEMBERS, id] as const;

/** The member's page (profile, masked bank, balance, bonus, recent logins). */
export function useMember(memberId: number) {
  return useQuery({
    queryKey: memberKey(memberId),
    queryFn: ({ signal }) => boApi.get('/api/backoffice/members/{member_id}', { params: { member_id: memberId }, signal }),
  });
}

/** After an action: the member (every tab) and the audit log are stale. */
export function useMemberChanged(memberId: number): () => void {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: memberKey(memberId) });
    void queryClient.invalidateQueries({ queryKey: ['bo', 'audit'] });
  };
}
