/** Edit the bank account name (KTB, TMB, BBL accounts whose stored name is not English). */
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/ui/Field';
import { Modal } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { useToast } from '@/components/ui/Toast';
import { useErrorText } from '@/hooks/use-error-text';
import { isEnglishName } from '@/lib/bank';
import { profileQuery, useUpdateBankName } from '../api/profile';

type Props = { open: boolean; onClose: () => void; bankCode: string };

export function BankNameModal({ open, onClose, bankCode }: Props) {
  const { t } = useTranslation();
  const toast = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const update = useUpdateBankName();
  const [name, setName] = useState('');
  const [invalid, setInvalid] = useState(false);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const value = name.trim().replace(/\s+/g, ' ');
    if (!value || update.isPending) return;
    if (!isEnglishName(value)) return setInvalid(true);
    update.mutate(
      { bankCode, bankAccountName: value },
      {
        onSuccess: () => {
          toast(t('common.saved'), 'success');
          void queryClient.invalidateQueries({ queryKey: profileQuery().queryKey });
          setName('');
          onClose();
        },
        onError: (error) => toast(errorText(error), 'danger'),
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
          disabled={!name.trim() || update.isPending}
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
      </form>
    </Modal>
  );
}
