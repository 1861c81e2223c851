/**
 * The operator's actions on a member (members.manage): suspend or reactivate, force logout,
 * one-time password reset (the temporary password is shown once) and bank correction. Each is a
 * confirmation asking for the reason, which the audit log keeps.
 */
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/ui/Field';
import { Modal } from '@/components/ui/Modal';
import { useToast } from '@/components/ui/Toast';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { boApi } from '../../lib/api';
import { may, type Me } from '../../lib/permissions';
import { useMemberChanged, type MemberDetail } from './members-api';

type Action = 'suspend' | 'reactivate' | 'logout' | 'password' | 'bank';

function ReasonField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('bo.members.reasonLabel')}
      hint={t('bo.members.reasonHint')}
      maxLength={500}
      required
      value={value}
      onChange={(event) => onChange(event.target.value)}
      data-autofocus
    />
  );
}

function TemporaryPassword({ password, onClose }: { password: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      onClose={onClose}
      title={t('bo.members.temporaryTitle')}
      footer={
        <div className="bo-dialog-actions">
          <button type="button" className="bo-btn bo-btn-primary" onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
      }
    >
      <div className="bo-dialog-body">
        <p>{t('bo.members.temporaryHint')}</p>
        <p className="bo-secret" aria-label={t('bo.members.temporaryTitle')}>
          <code className="bo-code bo-member-temp">{password}</code>
        </p>
      </div>
    </Modal>
  );
}

function ActionDialog({ kind, member, onClose, onPassword }: { kind: Action; member: MemberDetail; onClose: () => void; onPassword: (password: string) => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const formId = useId();
  const changed = useMemberChanged(member.id);
  const [reason, setReason] = useState('');
  const [bank, setBank] = useState({ bankCode: member.bank.bankCode, accountName: member.bank.accountName, accountNo: '' });
  const params = { member_id: member.id };
  const act = useMutation({
    mutationFn: async () => {
      const body = { reason };
      switch (kind) {
        case 'suspend':
          await boApi.post('/api/backoffice/members/{member_id}/suspend', body, { params });
          return;
        case 'reactivate':
          await boApi.post('/api/backoffice/members/{member_id}/reactivate', body, { params });
          return;
        case 'logout': {
          const ended = await boApi.post('/api/backoffice/members/{member_id}/logout', body, { params });
          toast(t('bo.members.loggedOut', { count: ended.sessionsEnded }), 'success');
          return;
        }
        case 'password': {
          const reset = await boApi.post('/api/backoffice/members/{member_id}/password-reset', body, { params });
          onPassword(reset.temporaryPassword);
          return;
        }
        case 'bank':
          await boApi.put('/api/backoffice/members/{member_id}/bank-account', { ...bank, reason }, { params });
      }
    },
    onSuccess: () => {
      if (kind !== 'logout') toast(t('bo.members.saved'), 'success');
      changed();
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    act.mutate();
  };
  const name = member.name;
  const titles: Record<Action, [string, string, boolean]> = {
    suspend: [t('bo.members.suspend'), t('bo.members.suspendConfirm', { name }), true],
    reactivate: [t('bo.members.reactivate'), t('bo.members.reactivateConfirm', { name }), false],
    logout: [t('bo.members.logout'), t('bo.members.logoutConfirm', { name }), true],
    password: [t('bo.members.passwordReset'), t('bo.members.passwordResetConfirm', { name }), true],
    bank: [t('bo.members.correctBank'), t('bo.members.correctBankHint'), false],
  };
  const [title, question, danger] = titles[kind];
  return (
    <ConfirmDialog open title={title} confirm={title} danger={danger} pending={act.isPending} error={act.error} onConfirm={() => act.mutate()} onClose={onClose} formId={formId}>
      <form id={formId} className="bo-form" onSubmit={submit} noValidate>
        <p>{question}</p>
        {kind === 'bank' && (
          <>
            <TextField label={t('bo.members.bankCode')} maxLength={10} value={bank.bankCode} onChange={(e) => setBank({ ...bank, bankCode: e.target.value })} />
            <TextField label={t('bo.members.accountName')} maxLength={100} value={bank.accountName} onChange={(e) => setBank({ ...bank, accountName: e.target.value })} />
            <TextField label={t('bo.members.accountNo')} inputMode="numeric" maxLength={30} value={bank.accountNo} onChange={(e) => setBank({ ...bank, accountNo: e.target.value })} />
          </>
        )}
        <ReasonField value={reason} onChange={setReason} />
      </form>
    </ConfirmDialog>
  );
}

export function MemberActions({ member, me }: { member: MemberDetail; me: Me | undefined }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<Action | null>(null);
  const [password, setPassword] = useState<string | null>(null);
  if (!may(me, 'members.manage')) return null;
  const button = (kind: Action, label: ReactNode, danger = false) => (
    <button type="button" className={danger ? 'bo-btn bo-btn-danger' : 'bo-btn'} onClick={() => setOpen(kind)}>
      {label}
    </button>
  );
  return (
    <div className="bo-member-actions" role="group" aria-label={t('bo.members.actions')}>
      {member.status === 'ACTIVE' ? button('suspend', t('bo.members.suspend'), true) : button('reactivate', t('bo.members.reactivate'))}
      {button('logout', t('bo.members.logout'))}
      {button('password', t('bo.members.passwordReset'))}
      {button('bank', t('bo.members.correctBank'))}
      {open && <ActionDialog kind={open} member={member} onClose={() => setOpen(null)} onPassword={setPassword} />}
      {password && <TemporaryPassword password={password} onClose={() => setPassword(null)} />}
    </div>
  );
}
