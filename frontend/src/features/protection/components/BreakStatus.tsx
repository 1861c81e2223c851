/** A running time-out or self-exclusion: until when, and "end my self-exclusion" once allowed. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { Icon } from '@/components/ui/Icon';
import { useToast } from '@/components/ui/Toast';
import { useErrorText } from '@/hooks/use-error-text';
import { formatDateTime } from '@/lib/dates';
import { useEndExclusion, type Exclusion } from '../api/protection';
import { exclusionView } from '../rules';

/** The one-line status of an exclusion ("Time-out until …", "Self-excluded until you ask …"). */
export function useBreakText(): (exclusion: Exclusion) => { status: string; more?: string } {
  const { t } = useTranslation();
  return (exclusion) => {
    const view = exclusionView(exclusion);
    if (view.kind === 'timeout') return { status: t('protection.statusTimeout', { time: formatDateTime(view.until) }) };
    if (view.until) return { status: t('protection.statusSelfUntil', { time: formatDateTime(view.until) }) };
    if (!view.from && !view.canRequestEnd) return { status: t('protection.statusForever') };
    return {
      status: t('protection.statusSelf'),
      more: view.from && !view.canRequestEnd ? t('protection.statusSelfFrom', { time: formatDateTime(view.from) }) : undefined,
    };
  };
}

export function BreakStatus({ exclusion }: { exclusion: Exclusion }) {
  const { t } = useTranslation();
  const toast = useToast();
  const errorText = useErrorText('protection');
  const end = useEndExclusion();
  const [asking, setAsking] = useState(false);
  const text = useBreakText()(exclusion);

  return (
    <section className="notice notice-warning" aria-labelledby="protection-status">
      <Icon name="info" size={20} />
      <div className="stack protection-status">
        <div>
          <h2 id="protection-status" className="protection-status-title">
            {t('protection.status')}
          </h2>
          <p>{text.status}</p>
          {text.more && <p className="small">{text.more}</p>}
          <p className="small">{t('protection.bannerText')}</p>
        </div>
        {exclusion.canRequestEnd && (
          <button type="button" className="btn btn-secondary" onClick={() => setAsking(true)}>
            {t('protection.end')}
          </button>
        )}
      </div>
      <ConfirmDialog
        open={asking}
        title={t('protection.endTitle')}
        message={t('protection.endText')}
        confirmLabel={t('protection.endConfirm')}
        busy={end.isPending}
        onConfirm={() =>
          end.mutate(undefined, {
            onSuccess: () => {
              setAsking(false);
              toast(t('protection.endAsked'), 'success');
            },
            onError: (error) => {
              setAsking(false);
              toast(errorText(error), 'danger');
            },
          })
        }
        onCancel={() => setAsking(false)}
      />
    </section>
  );
}
