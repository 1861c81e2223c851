/** Adding a staff member: login, name, role and a first password; then their enrolment (QR code
 * and secret), shown this once, to hand over. */
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '@/api/schema.gen';
import { SelectField, TextField } from '@/components/ui/Field';
import { Modal } from '@/components/ui/Modal';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { boApi } from '../../lib/api';
import { ROLES, type Role } from '../../lib/permissions';
import { EnrolmentCard } from '../login/LoginPage';
import { useStaffChanged } from './staff-api';

type Created = components['schemas']['StaffCreatedOut'];

export function AddStaffDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const formId = useId();
  const changed = useStaffChanged();
  const [login, setLogin] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [password, setPassword] = useState('');
  const [created, setCreated] = useState<Created | null>(null);
  const add = useMutation({
    mutationFn: () =>
      boApi.post('/api/backoffice/staff', { login: login.trim(), displayName: displayName.trim() || null, role, password }),
    onSuccess: (answer) => {
      setCreated(answer);
      changed();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };

  if (created) {
    return (
      <Modal
        open
        onClose={onClose}
        title={t('bo.staff.enrolmentTitle', { login: created.staff.login })}
        footer={
          <div className="bo-dialog-actions">
            <button type="button" className="bo-btn bo-btn-primary" onClick={onClose}>
              {t('common.close')}
            </button>
          </div>
        }
      >
        <div className="bo-dialog-body">
          <p>{t('bo.staff.enrolmentHint', { login: created.staff.login })}</p>
          <EnrolmentCard secret={created.enrolment.secret} qr={created.enrolment.qr} />
        </div>
      </Modal>
    );
  }
  return (
    <ConfirmDialog
      open
      title={t('bo.staff.add')}
      confirm={t('bo.staff.create')}
      pending={add.isPending}
      error={add.error}
      onConfirm={() => add.mutate()}
      onClose={onClose}
      formId={formId}
    >
      <form id={formId} className="bo-form" onSubmit={submit} noValidate>
        <TextField
          label={t('bo.staff.login')}
          hint={t('bo.staff.loginHint')}
          autoComplete="off"
          required
          maxLength={40}
          value={login}
          onChange={(event) => setLogin(event.target.value)}
          data-autofocus
        />
        <TextField
          label={t('bo.staff.displayName')}
          autoComplete="off"
          maxLength={80}
          value={displayName}
          onChange={(event) => setDisplayName(event.target.value)}
        />
        <SelectField label={t('bo.staff.role')} value={role} onChange={(event) => setRole(event.target.value as Role)}>
          {ROLES.map((value) => (
            <option key={value} value={value}>
              {t(`bo.role.${value}`)}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('bo.staff.password')}
          hint={t('bo.staff.passwordHint')}
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          maxLength={128}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </form>
    </ConfirmDialog>
  );
}
