/** A confirmation on the shared Modal: a question, Cancel and the action; the action's error
 * (by catalogue code) is shown in the dialog, which stays open until it succeeds. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '@/components/ui/Modal';
import { useBoErrorText } from '../lib/errors';

type Props = {
  open: boolean;
  title: string;
  children: ReactNode;
  confirm: string;
  danger?: boolean;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
  /** A form inside the dialog submits through the confirm button. */
  formId?: string;
  /** Room for a picture beside its facts (a slip under review). */
  wide?: boolean;
};

export function ConfirmDialog({ open, title, children, confirm, danger, pending, error, onConfirm, onClose, formId, wide = false }: Props) {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      wide={wide}
      dismissible={!pending}
      footer={
        <div className="bo-dialog-actions">
          <button type="button" className="bo-btn" onClick={onClose} disabled={pending}>
            {t('common.cancel')}
          </button>
          <button
            type={formId ? 'submit' : 'button'}
            form={formId}
            className={danger ? 'bo-btn bo-btn-danger' : 'bo-btn bo-btn-primary'}
            onClick={formId ? undefined : onConfirm}
            disabled={pending}
          >
            {confirm}
          </button>
        </div>
      }
    >
      <div className="bo-dialog-body">
        {children}
        {error ? (
          <p className="bo-error" role="alert">
            {errorText(error)}
          </p>
        ) : null}
      </div>
    </Modal>
  );
}
