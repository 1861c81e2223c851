/**
 * The inviter code: a `?code=` in the URL is saved to localStorage 'code'; a saved code fills the
 * field and makes it read-only.
 */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { readLocal, STORAGE_KEYS, writeLocal } from '@/lib/storage';

export function useInviteCode(): { code: string; locked: boolean } {
  const [params] = useSearchParams();
  const [state] = useState(() => {
    const fromUrl = params.get('code')?.trim();
    if (fromUrl) writeLocal(STORAGE_KEYS.inviteCode, fromUrl);
    const saved = readLocal(STORAGE_KEYS.inviteCode) ?? '';
    return { code: saved, locked: saved !== '' };
  });
  return state;
}
