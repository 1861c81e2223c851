/** The confirmations of the staff row actions: rename, change role, disable, enable, reset
 * two-step and reset password, each one call of the staff API. The name is what colleagues read
 * in the audit log and on every decision (the login stays what the person types). */
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '@/api/schema.gen';
import { SelectField, TextField } from '@/components/ui/Field';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { boApi } from '../../lib/api';
import { ROLES, type Role } from '../../lib/permissions';
import { useStaffChanged } from './staff-api';

type Staff = components['schemas']['StaffOut'];
export type StaffAction = 'rename' | 'role' | 'disable' | 'enable' | 'reset2fa' | 'password';

export function StaffActionDialog({ kind, staff, onClose }: { kind: StaffAction; staff: Staff; onClose: () => void }) {
  const { t } = useTranslation();
  const formId = useId();
  const changed = useStaffChanged();
  const [role, setRole] = useState<Role>(staff.role);
  const [password, setPassword] = useState('');
  const [displayName, setDisplayName] = useState(staff.displayName);
  const params = { staff_id: staff.id };
  const name = staff.displayName;
  const act = useMutation({
    mutationFn: async () => {
      if (kind === 'rename') await boApi.patch('/api/backoffice/staff/{staff_id}', { displayName: displayName.trim() }, { params });
      else if (kind === 'role') await boApi.patch('/api/backoffice/staff/{staff_id}', { role }, { params });
      else if (kind === 'disable' || kind === 'enable')
        await boApi.patch('/api/backoffice/staff/{staff_id}', { disabled: kind === 'disable' }, { params });
      else if (kind === 'reset2fa') await boApi.post('/api/backoffice/staff/{staff_id}/reset-2fa', undefined, { params });
      else await boApi.post('/api/backoffice/staff/{staff_id}/reset-password', { password }, { params });
    },
    onSuccess: () => {
      changed();
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    act.mutate();
  };
  const common = { open: true, pending: act.isPending, error: act.error, onConfirm: () => act.mutate(), onClose };

  switch (kind) {
    case 'rename':
      return (
        <ConfirmDialog {...common} title={t('bo.staff.renameOf', { login: staff.login })} confirm={t('common.save')} formId={formId}>
          <form id={formId} className="bo-form" onSubmit={submit} noValidate>
            <TextField
              label={t('bo.staff.displayName')}
              hint={t('bo.staff.displayNameHint')}
              maxLength={80}
              value={displayName}
              onChange={(event) => setDisplayName(event.target.value)}
              required
              data-autofocus
            />
          </form>
        </ConfirmDialog>
      );
    case 'role':
      return (
        <ConfirmDialog {...common} title={t('bo.staff.changeRoleOf', { name })} confirm={t('common.save')} formId={formId}>
          <form id={formId} onSubmit={submit}>
            <SelectField label={t('bo.staff.role')} value={role} onChange={(event) => setRole(event.target.value as Role)}>
              {ROLES.map((value) => (
                <option key={value} value={value}>
                  {t(`bo.role.${value}`)}
                </option>
              ))}
            </SelectField>
          </form>
        </ConfirmDialog>
      );
    case 'password':
      return (
        <ConfirmDialog {...common} title={t('bo.staff.resetPasswordOf', { name })} confirm={t('bo.staff.resetPassword')} formId={formId} danger>
          <form id={formId} className="bo-form" onSubmit={submit} noValidate>
            <p>{t('bo.staff.resetPasswordHint')}</p>
            <TextField
              label={t('bo.staff.newPassword')}
              hint={t('bo.staff.passwordHint')}
              type="password"
              autoComplete="new-password"
              minLength={10}
              maxLength={128}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              data-autofocus
            />
          </form>
        </ConfirmDialog>
      );
    case 'disable':
      return (
        <ConfirmDialog {...common} title={t('bo.staff.disable')} confirm={t('bo.staff.disable')} danger>
          <p>{t('bo.staff.confirmDisable', { name })}</p>
        </ConfirmDialog>
      );
    case 'enable':
      return (
        <ConfirmDialog {...common} title={t('bo.staff.enable')} confirm={t('bo.staff.enable')}>
          <p>{t('bo.staff.confirmEnable', { name })}</p>
        </ConfirmDialog>
      );
    case 'reset2fa':
      return (
        <ConfirmDialog {...common} title={t('bo.staff.reset2fa')} confirm={t('bo.staff.reset2fa')} danger>
          <p>{t('bo.staff.confirmReset2fa', { name })}</p>
        </ConfirmDialog>
      );
  }
}
