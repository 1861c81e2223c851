/** The "?" dialog: the queue's keyboard shortcuts (queue-keys), each key with what it does. */
import { useTranslation } from 'react-i18next';
import { Modal } from '@/components/ui/Modal';
import { SHORTCUTS } from './queue-keys';

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={open} onClose={onClose} title={t('bo.withdrawals.keys.title')}>
      <div className="bo-dialog-body">
        <p className="bo-muted bo-small">{t('bo.withdrawals.keys.hint')}</p>
        <dl className="bo-keys">
          {SHORTCUTS.map(({ keys, action }) => (
            <div key={action}>
              <dt>
                {keys.map((key, i) => (
                  <span key={key}>
                    {i > 0 && ' / '}
                    <kbd>{key === 'Escape' ? 'Esc' : key}</kbd>
                  </span>
                ))}
              </dt>
              <dd>{t(`bo.withdrawals.keys.${action}`)}</dd>
            </div>
          ))}
        </dl>
      </div>
    </Modal>
  );
}
