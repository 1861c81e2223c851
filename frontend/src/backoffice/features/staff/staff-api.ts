/** The staff list's query key, and what every staff change does after it succeeds. */
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useToast } from '@/components/ui/Toast';

export const STAFF = ['bo', 'staff'];

/** Says so, and refreshes the staff list and the audit log (every change writes a row). */
export function useStaffChanged(): () => void {
  const queryClient = useQueryClient();
  const toast = useToast();
  const { t } = useTranslation();
  return () => {
    toast(t('bo.staff.saved'), 'success');
    void queryClient.invalidateQueries({ queryKey: STAFF });
    void queryClient.invalidateQueries({ queryKey: ['bo', 'audit'] });
  };
}
