/** The agreement modal shown on home until the member accepts it. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Modal } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { useToast } from '@/components/ui/Toast';
import { useErrorText } from '@/hooks/use-error-text';
import { agreementTextsQuery, useAcceptAgreement } from '../api/agreement';
import { rememberAgreement, useAgreementPrompt } from '../hooks/use-agreement-prompt';

export function AgreementPrompt() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const errorText = useErrorText('agreement');
  const [open, setOpen] = useAgreementPrompt();
  const texts = useQuery({ ...agreementTextsQuery(i18n.language), enabled: open });
  const accept = useAcceptAgreement();

  const onAccept = () =>
    accept.mutate(undefined, {
      onSuccess: () => {
        rememberAgreement();
        setOpen(false);
      },
      onError: (error) => toast(errorText(error), 'danger'),
    });

  return (
    <Modal
      open={open}
      onClose={() => setOpen(false)}
      title={t('agreement.title')}
      footer={
        <button
          type="button"
          className="btn btn-primary btn-block"
          onClick={onAccept}
          disabled={accept.isPending || !texts.data}
        >
          {accept.isPending ? <Spinner /> : t('agreement.accept')}
        </button>
      }
    >
      {texts.isLoading && <Spinner />}
      <div className="prose">
        {texts.data?.map((text, index) => (
          <p key={index}>{text}</p>
        ))}
      </div>
    </Modal>
  );
}
