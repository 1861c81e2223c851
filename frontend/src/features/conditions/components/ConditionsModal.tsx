/** The conditions popup of the member menu: server HTML, sanitised, with a confirm button. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Modal } from '@/components/ui/Modal';
import { SafeHtml } from '@/components/ui/SafeHtml';
import { Spinner } from '@/components/ui/Spinner';
import { conditionsQuery } from '../api/conditions';

export function ConditionsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const conditions = useQuery({ ...conditionsQuery(i18n.language), enabled: open });
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('conditions.title')}
      footer={
        <button type="button" className="btn btn-primary btn-block" onClick={onClose}>
          {t('common.confirm')}
        </button>
      }
    >
      {conditions.isLoading && <Spinner />}
      {conditions.data?.length === 0 && <p className="muted">{t('conditions.empty')}</p>}
      <ol className="conditions">
        {conditions.data?.map((html, index) => (
          <li key={index}>
            <SafeHtml html={html} className="prose" />
          </li>
        ))}
      </ol>
    </Modal>
  );
}
