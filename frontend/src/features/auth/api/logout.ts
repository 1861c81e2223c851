import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import { clearSession, getToken } from '@/lib/storage';

/**
 * Forgets the stored session at once and revokes its token on the server (best effort: an
 * unreachable server must not keep the member logged in, and errors here route nowhere).
 */
export async function endSession(): Promise<void> {
  const token = getToken();
  clearSession();
  if (!token) return;
  try {
    await api.post('/api/logout', undefined, { headers: { Authorization: `Bearer ${token}` } });
  } catch {
    // already forgotten locally
  }
}

export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: endSession,
    onSettled: () => {
      queryClient.clear();
      void navigate(paths.login, { replace: true });
    },
  });
}
