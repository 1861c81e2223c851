/** Loading indicators; the delayed one appears only after 200 ms so fast loads do not flash. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export const LOADER_DELAY_MS = 200;

export function Spinner({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <span className="spinner" role="status">
      <span className="spinner-ring" aria-hidden="true" />
      <span className="visually-hidden">{label ?? t('common.loading')}</span>
    </span>
  );
}

export function DelayedSpinner({ delay = LOADER_DELAY_MS }: { delay?: number }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const id = window.setTimeout(() => setVisible(true), delay);
    return () => window.clearTimeout(id);
  }, [delay]);
  return visible ? (
    <div className="page-loader">
      <Spinner />
    </div>
  ) : null;
}
