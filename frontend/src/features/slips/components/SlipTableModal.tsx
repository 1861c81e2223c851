/**
 * The slip modal of the statement page (spec §2 Statement): date, amount ('-' if not above 0),
 * status with its translated reason, a view-image link; refresh; 10 per page.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/Icon';
import { Modal } from '@/components/ui/Modal';
import { Pagination } from '@/components/ui/Pagination';
import { DelayedSpinner, Spinner } from '@/components/ui/Spinner';
import { useErrorText } from '@/hooks/use-error-text';
import { formatDateTime } from '@/lib/dates';
import { useMoney } from '@/lib/member-currency';
import { pageCount } from '@/lib/pagination';
import { SLIP_PAGE_SIZE, fetchSlipImage, useSlips, type Slip } from '../api/slips';
import { slipAmountText, slipBadge, slipReasonKey } from './slip-format';
import { SlipUpload } from './SlipUpload';
import './slips.css';

type Props = {
  open: boolean;
  onClose: () => void;
  /** Called after a slip uploaded here was credited (the caller reloads balances). */
  onCredited?: () => void;
};

export function SlipTableModal({ open, onClose, onCredited }: Props) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [uploading, setUploading] = useState(false);
  const [viewing, setViewing] = useState<Slip | null>(null);
  const slips = useSlips(page, open);

  if (!open) return null;
  if (viewing) return <SlipImageModal slip={viewing} onClose={() => setViewing(null)} />;
  const data = slips.data;
  const count = data ? pageCount(data.total, SLIP_PAGE_SIZE) : 0;

  return (
    <Modal
      open
      wide
      onClose={onClose}
      title={t('slips.tableTitle')}
      footer={
        <button
          type="button"
          className="btn btn-secondary btn-block"
          onClick={() => void slips.refetch()}
          disabled={slips.isFetching}
        >
          {slips.isFetching ? <Spinner /> : <Icon name="refresh" size={18} />}
          {t('slips.refresh')}
        </button>
      }
    >
      <div className="stack">
        {uploading ? (
          <SlipUpload
            onCredited={() => {
              setPage(1);
              onCredited?.();
            }}
          />
        ) : (
          <button type="button" className="btn btn-ghost" onClick={() => setUploading(true)}>
            {t('slips.uploadOpen')}
          </button>
        )}
      {slips.isPending ? (
        <DelayedSpinner />
      ) : !data || data.slips.length === 0 ? (
        <p className="empty">{t('slips.empty')}</p>
      ) : (
        <div className="stack">
          <div className="slip-table-wrap">
            <table className="slip-table" aria-busy={slips.isFetching}>
              <thead>
                <tr>
                  <th scope="col">{t('slips.columns.date')}</th>
                  <th scope="col">{t('slips.columns.amount')}</th>
                  <th scope="col">{t('slips.columns.status')}</th>
                  <th scope="col">{t('slips.columns.image')}</th>
                </tr>
              </thead>
              <tbody>
                {data.slips.map((slip) => (
                  <SlipRow key={slip._id} slip={slip} onView={() => setViewing(slip)} />
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={page} count={count} onChange={setPage} />
        </div>
      )}
      </div>
    </Modal>
  );
}

function SlipRow({ slip, onView }: { slip: Slip; onView: () => void }) {
  const money = useMoney();
  const { t, i18n } = useTranslation();
  const badge = slipBadge(slip.status, slip.review);
  const reasonKey = slipReasonKey(slip.note);
  return (
    <tr>
      <td>
        <time dateTime={slip.createdAt}>{formatDateTime(slip.createdAt)}</time>
      </td>
      <td className="num">{slipAmountText(slip.amount, (v) => money(v))}</td>
      <td>
        <span className={`badge badge-${badge.tone}`}>{t(badge.key as never)}</span>
        {reasonKey && (
          <span className="slip-reason muted">
            {i18n.exists(reasonKey) ? t(reasonKey as never) : slip.note}
          </span>
        )}
      </td>
      <td>
        <button type="button" className="link-btn" onClick={onView}>
          {t('slips.view')}
          <span className="visually-hidden"> {slip.reference ?? slip._id}</span>
        </button>
      </td>
    </tr>
  );
}

function SlipImageModal({ slip, onClose }: { slip: Slip; onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText('slipView');
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    let objectUrl: string | null = null;
    let live = true;
    fetchSlipImage(slip.link)
      .then((blob) => {
        if (!live) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch((err: unknown) => {
        if (live) setError(errorText(err));
      });
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [slip.link, errorText]);

  return (
    <Modal open onClose={onClose} title={t('slips.imageTitle')}>
      {error ? (
        <p className="notice notice-warning">{error}</p>
      ) : url ? (
        <img
          className="slip-image"
          src={url}
          alt={t('slips.imageAlt', { reference: slip.reference ?? slip._id })}
        />
      ) : (
        <Spinner />
      )}
    </Modal>
  );
}

export default SlipTableModal;
