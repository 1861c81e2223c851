/**
 * Edit the bank account name (KTB, TMB, BBL accounts whose stored name is not English). It
 * changes where withdrawals are paid, so the server asks for the member's password too; a wrong
 * one is shown on the password field.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/ui/Field';
import { Modal } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { useToast } from '@/components/ui/Toast';
import { useErrorText } from '@/hooks/use-error-text';
import { isEnglishName } from '@/lib/bank';
import { ApiError } from '@/lib/errors';
import { profileQuery, useUpdateBankName } from '../api/profile';

type Props = { open: boolean; onClose: () => void; bankCode: string };

export function BankNameModal({ open, onClose, bankCode }: Props) {
  const { t } = useTranslation();
  const toast = useToast();
  const errorText = useErrorText('profile');
  const queryClient = useQueryClient();
  const update = useUpdateBankName();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [passwordError, setPasswordError] = useState<string | undefined>();

  const ready = name.trim() !== '' && password !== '';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const value = name.trim().replace(/\s+/g, ' ');
    if (!value || !password || update.isPending) return;
    if (!isEnglishName(value)) return setInvalid(true);
    update.mutate(
      { bankCode, bankAccountName: value, password },
      {
        onSuccess: () => {
          toast(t('common.saved'), 'success');
          void queryClient.invalidateQueries({ queryKey: profileQuery().queryKey });
          setName('');
          setPassword('');
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'WRONG_PASSWORD') {
            setPassword('');
            return setPasswordError(errorText(error));
          }
          toast(errorText(error), 'danger');
        },
      },
    );
  };

  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('profile.editBankName')}
      footer={
        <button
          type="submit"
          form="bank-name-form"
          className="btn btn-primary btn-block"
          disabled={!ready || update.isPending}
        >
          {update.isPending ? <Spinner /> : t('common.save')}
        </button>
      }
    >
      <form id="bank-name-form" className="stack" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('profile.bankAccountName')}
          hint={t('profile.bankNameRule')}
          error={invalid ? t('register.englishOnly') : undefined}
          autoCapitalize="characters"
          value={name}
          onChange={(e) => {
            setName(e.target.value.toUpperCase());
            setInvalid(false);
          }}
        />
        <TextField
          label={t('profile.oldPassword')}
          hint={t('profile.passwordToConfirm')}
          error={passwordError}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setPasswordError(undefined);
          }}
          required
        />
      </form>
    </Modal>
  );
}
