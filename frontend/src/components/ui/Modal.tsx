/**
 * Modal dialog on the native <dialog> element: focus moves in (to the child marked
 * data-autofocus, else the first focusable one) and is trapped by the browser, Escape closes,
 * the page behind is inert, and page scroll is locked while any modal is open.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon';

let openCount = 0;

function lockScroll(): () => void {
  openCount += 1;
  document.body.classList.add('scroll-locked');
  return () => {
    openCount = Math.max(0, openCount - 1);
    if (openCount === 0) document.body.classList.remove('scroll-locked');
  };
}

type Props = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** 'alert' dialogs announce themselves as alertdialog. */
  role?: 'dialog' | 'alertdialog';
  /** When false, Escape and the close button do nothing (e.g. while saving). */
  dismissible?: boolean;
  wide?: boolean;
};

export function Modal({
  open,
  onClose,
  title,
  children,
  footer,
  role = 'dialog',
  dismissible = true,
  wide = false,
}: Props) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const closeRef = useRef(onClose);
  const dismissRef = useRef(dismissible);
  useEffect(() => {
    closeRef.current = onClose;
    dismissRef.current = dismissible;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!open || !dialog) return;
    if (!dialog.open) {
      dialog.showModal();
      // React does not write `autoFocus` into the page: it calls focus() while the dialog is
      // still closed, which does nothing, and the dialog then focuses its first focusable
      // element, the close button. The element a dialog marks data-autofocus (its main
      // action, or the field to fill) gets the focus instead.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    const unlock = lockScroll();
    const onCancel = (event: Event) => {
      event.preventDefault();
      if (dismissRef.current) closeRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      unlock();
    };
  }, [open]);

  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className={wide ? 'modal modal-wide' : 'modal'}
      aria-labelledby={titleId}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
    >
      <div className="modal-head">
        <h2 id={titleId} className="modal-title">
          {title}
        </h2>
        {dismissible && (
          <button type="button" className="icon-btn" onClick={onClose} aria-label={t('common.close')}>
            <Icon name="close" />
          </button>
        )}
      </div>
      <div className="modal-body">{children}</div>
      {footer && <div className="modal-foot">{footer}</div>}
    </dialog>
  );
}

type MessageProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  message: ReactNode;
  tone?: 'success' | 'error' | 'info';
};

/** Success, error or info dialog with one OK button (spec §8 'error' and 'saved' dialogs). */
export function MessageDialog({ open, onClose, title, message, tone = 'info' }: MessageProps) {
  const { t } = useTranslation();
  const icon = tone === 'success' ? 'check' : tone === 'error' ? 'alert' : 'info';
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      role="alertdialog"
      footer={
        <button type="button" className="btn btn-primary btn-block" onClick={onClose} data-autofocus>
          {t('common.ok')}
        </button>
      }
    >
      <div className={`message message-${tone}`}>
        <span className="message-icon">
          <Icon name={icon} size={28} />
        </span>
        <p>{message}</p>
      </div>
    </Modal>
  );
}
