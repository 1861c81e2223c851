/**
 * Opens the agreement 1.5 s after the home page loads (spec §2), unless the member already
 * accepted: remembered locally in 'remember-agreement', else asked of the server.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { readLocal, STORAGE_KEYS, writeLocal } from '@/lib/storage';
import { agreementStatusQuery } from '../api/agreement';

export const AGREEMENT_DELAY_MS = 1500;

export function rememberAgreement(): void {
  writeLocal(STORAGE_KEYS.rememberAgreement, 'true');
}

export function useAgreementPrompt(): [boolean, (open: boolean) => void] {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (readLocal(STORAGE_KEYS.rememberAgreement) === 'true') return;
    let live = true;
    const timer = window.setTimeout(() => {
      queryClient
        .fetchQuery(agreementStatusQuery())
        .then(({ accepted }) => {
          if (accepted) rememberAgreement();
          else if (live) setOpen(true);
        })
        .catch(() => undefined); // a failed check just skips the prompt this time
    }, AGREEMENT_DELAY_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [queryClient]);
  return [open, setOpen];
}
