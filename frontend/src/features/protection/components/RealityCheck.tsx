/**
 * The reality-check reminder: while the member is logged in, every N minutes of the session
 * (their choice on the play-limits page) a dialog says how long they have been logged in and
 * their net result from play since login, with "Continue", "Stop playing (log out)" and a link
 * to the play limits. The server is asked once when the app starts and once each time a
 * reminder is due (for fresh figures), never polled; the timer runs on the server's clock.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Modal } from '@/components/ui/Modal';
import { formatMoney, type Currency } from '@/lib/money';
import { paths } from '@/lib/paths';
import { realityCheckQuery, type RealityCheck as Check } from '../api/reality-check';
import { clockSkew, delayUntilDue, elapsed } from '../reality-timing';
import './reality.css';

// The figures as read when due, and the time then on the server's clock (epoch ms).
type Shown = { check: Check; at: number };

export function RealityCheck({ onStop }: { onStop: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = useQuery(realityCheckQuery());
  const [shown, setShown] = useState<Shown | null>(null);
  // The browser clock's offset from the server's, measured on the first answer.
  const skew = useRef<number | null>(null);
  const data = query.data;
  const readAt = query.dataUpdatedAt;

  useEffect(() => {
    if (!data || data.minutes === null || shown) return;
    skew.current ??= clockSkew(Date.parse(data.now), readAt);
    const offset = skew.current;
    const wait = delayUntilDue(Date.parse(data.loginAt), data.minutes, Date.now() + offset);
    const timer = window.setTimeout(() => {
      // Due: one request for the figures as they are now, then the dialog.
      void client.fetchQuery({ ...realityCheckQuery(), staleTime: 0 }).then(
        (check) => {
          if (check.minutes !== null) setShown({ check, at: Date.now() + offset });
        },
        () => undefined,
      );
    }, wait);
    return () => window.clearTimeout(timer);
  }, [data, readAt, shown, client]);

  if (!shown) return null;
  const { check, at } = shown;
  const time = elapsed(Date.parse(check.loginAt), at);
  const currency = check.currency as Currency;
  const net = check.net;
  const result =
    net > 0
      ? t('reality.won', { amount: formatMoney(net, currency) })
      : net < 0
        ? t('reality.lost', { amount: formatMoney(-net, currency) })
        : t('reality.even');
  const close = () => setShown(null);
  return (
    <Modal
      open
      onClose={close}
      title={t('reality.title')}
      role="alertdialog"
      footer={
        <div className="reality-actions">
          <button type="button" className="btn btn-primary btn-block" onClick={close} data-autofocus>
            {t('reality.continue')}
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-block"
            onClick={() => {
              close();
              onStop();
            }}
          >
            {t('reality.stop')}
          </button>
        </div>
      }
    >
      <dl className="reality-figures">
        <div>
          <dt>{t('reality.timeLabel')}</dt>
          <dd>{t('reality.time', { hours: time.hours, minutes: time.minutes })}</dd>
        </div>
        <div>
          <dt>{t('reality.netLabel')}</dt>
          <dd className={net < 0 ? 'reality-loss' : undefined}>{result}</dd>
        </div>
      </dl>
      <p className="muted small">{t('reality.netHint')}</p>
      <p>
        <Link to={paths.user.protection} onClick={close} className="reality-link">
          {t('reality.limitsLink')}
        </Link>
      </p>
    </Modal>
  );
}
