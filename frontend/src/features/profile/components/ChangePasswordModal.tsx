/**
 * Change password: all three fields required, new and confirm must match. The server ends every
 * session on success, so after the 'saved' alert the member logs in again.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { TextField } from '@/components/ui/Field';
import { MessageDialog, Modal } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { useErrorText } from '@/hooks/use-error-text';
import { paths } from '@/lib/paths';
import { clearSession } from '@/lib/storage';
import { useChangePassword } from '../api/profile';

type Outcome = { tone: 'success' | 'error'; message: string } | null;

export function ChangePasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const errorText = useErrorText('changePassword');
  const change = useChangePassword();
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirm, setConfirm] = useState('');
  const [notEqual, setNotEqual] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const ready = oldPassword !== '' && newPassword !== '' && confirm !== '';

  const reset = () => {
    setOld('');
    setNew('');
    setConfirm('');
    setNotEqual(false);
    setOutcome(null);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || change.isPending) return;
    if (newPassword !== confirm) return setNotEqual(true);
    change.mutate(
      { oldPassword, newPassword },
      {
        onSuccess: () => setOutcome({ tone: 'success', message: t('profile.passwordSaved') }),
        onError: (error) => setOutcome({ tone: 'error', message: errorText(error) }),
      },
    );
  };

  const finish = () => {
    reset();
    onClose();
    clearSession();
    queryClient.clear();
    void navigate(paths.login, { replace: true });
  };

  if (!open) return null;
  if (outcome) {
    return (
      <MessageDialog
        open
        tone={outcome.tone}
        title={outcome.tone === 'success' ? t('common.saved') : t('common.error')}
        message={outcome.message}
        onClose={outcome.tone === 'success' ? finish : () => setOutcome(null)}
      />
    );
  }
  return (
    <Modal
      open
      onClose={() => {
        reset();
        onClose();
      }}
      title={t('profile.changePassword')}
      dismissible={!change.isPending}
      footer={
        <button
          type="submit"
          form="password-form"
          className="btn btn-primary btn-block"
          disabled={!ready || change.isPending}
        >
          {change.isPending ? <Spinner /> : t('common.save')}
        </button>
      }
    >
      <form id="password-form" className="stack" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('profile.oldPassword')}
          type="password"
          autoComplete="current-password"
          value={oldPassword}
          onChange={(e) => setOld(e.target.value)}
          required
        />
        <TextField
          label={t('profile.newPassword')}
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={(e) => {
            setNew(e.target.value);
            setNotEqual(false);
          }}
          required
        />
        <TextField
          label={t('profile.confirmPassword')}
          type="password"
          autoComplete="new-password"
          value={confirm}
          error={notEqual ? t('profile.notEqual') : undefined}
          onChange={(e) => {
            setConfirm(e.target.value);
            setNotEqual(false);
          }}
          required
        />
      </form>
    </Modal>
  );
}
