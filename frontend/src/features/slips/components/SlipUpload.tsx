/**
 * Slip upload for the deposit modal's bank-transfer tab (spec §2, §7, §8): pick a PNG/JPEG,
 * upload with progress (XHR, 300 s), then the outcome with its translated reason. The rules
 * shown come from GET /api/lookup/slip.
 *
 * The outcome sits at the top of the form and is scrolled into view and focused when it comes:
 * on a phone the upload button is below the bank details, and an outcome under it was off screen
 * (the only visible change was the file field resetting: issue 17, finding 5).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/Icon';
import { Spinner } from '@/components/ui/Spinner';
import { useErrorText } from '@/hooks/use-error-text';
import { isDefiniteAnswer, useIntentKey } from '@/hooks/use-intent-key';
import { useMoney, useMoneyUnit } from '@/lib/member-currency';
import {
  SlipUploadError,
  isAcceptedImage,
  slipRulesQuery,
  uploadSlip,
  type SlipUploadResult,
} from '../api/slips';
import './slips.css';

type Props = {
  /** Called after a slip was credited, so the caller reloads balances. */
  onCredited?: () => void;
};

type Outcome = { tone: 'success' | 'warning' | 'danger'; text: string } | null;

export function SlipUpload({ onCredited }: Props) {
  const money = useMoney();
  const unit = useMoneyUnit();
  const { t, i18n } = useTranslation();
  const errorText = useErrorText('slipUpload');
  const queryClient = useQueryClient();
  const rules = useQuery(slipRulesQuery());
  const intent = useIntentKey();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [pickError, setPickError] = useState('');
  const busy = progress !== null;
  const outcomeRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    const shown = outcomeRef.current;
    if (!outcome || !shown) return;
    shown.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    shown.focus({ preventScroll: true });
  }, [outcome]);

  const reasonText = (reason: string | null | undefined) =>
    reason && i18n.exists(`slipReason.${reason}`) ? t(`slipReason.${reason}` as never) : (reason ?? '');

  const show = (result: SlipUploadResult) => {
    if (result.code === 'SUCCESS') {
      setOutcome({
        tone: 'success',
        text: t('slips.credited', { amount: money(result.slip.amount), unit }),
      });
      onCredited?.();
    } else if (result.code === 'OK') {
      setOutcome({ tone: 'warning', text: t('slips.inProgress') });
    } else if (result.slip.review === 'OPEN') {
      // Not a refusal yet: staff look at the slip and may credit it (the slip's status says).
      setOutcome({ tone: 'warning', text: t('slips.underReview', { reason: reasonText(result.reason) }) });
    } else {
      setOutcome({ tone: 'danger', text: t('slips.refused', { reason: reasonText(result.reason) }) });
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file || busy) return;
    setOutcome(null);
    setProgress(0);
    try {
      const result = await uploadSlip(file, {
        idempotencyKey: intent.current(),
        onProgress: setProgress,
      });
      intent.renew();
      show(result);
      setFile(null);
      if (inputRef.current) inputRef.current.value = '';
      void queryClient.invalidateQueries({ queryKey: ['slips'] });
    } catch (error) {
      if (isDefiniteAnswer(error)) intent.renew();
      const text =
        error instanceof SlipUploadError && error.reason
          ? reasonText(error.reason)
          : errorText(error);
      setOutcome({ tone: 'danger', text });
    } finally {
      setProgress(null);
    }
  };

  const data = rules.data;
  return (
    <form className="slip-upload stack" onSubmit={onSubmit} noValidate>
      <div role="status" aria-live="polite" className="slip-outcome">
        {outcome && (
          <p
            ref={outcomeRef}
            tabIndex={-1}
            className={`notice notice-${outcome.tone === 'danger' ? 'warning' : outcome.tone}`}
          >
            <Icon name={outcome.tone === 'success' ? 'check' : 'alert'} size={18} />
            {outcome.text}
          </p>
        )}
      </div>
      <ul className="slip-rules muted">
        <li>{t('slips.rules.credit')}</li>
        <li>
          {t('slips.rules.within', { count: data?.uploadWithinMinutes ?? 60 })}
        </li>
        <li>{t('slips.rules.closed')}</li>
        {data && <li>{t('slips.rules.minimum', { amount: money(data.minimumDeposit), unit })}</li>}
      </ul>
      <div className="file-pick">
        {/* The browser's own file control cannot be styled: it stays in the page, focusable and
            labelled, but out of sight; the label is the visible button, the chosen file's name
            sits next to it. */}
        <label htmlFor={inputId} className="file-pick-label">
          <span className="field-label">{t('slips.pick')}</span>
          <span className="btn btn-secondary file-pick-button" aria-hidden="true">
            <Icon name="clip" size={18} /> {t('slips.choose')}
          </span>
        </label>
        <input
          id={inputId}
          ref={inputRef}
          type="file"
          className="file-pick-input visually-hidden"
          accept="image/png,image/jpeg"
          disabled={busy}
          aria-describedby={`${inputId}-name${pickError ? ` ${inputId}-error` : ''}`}
          onChange={(e) => {
            const picked = e.target.files?.[0] ?? null;
            setOutcome(null);
            if (picked && !isAcceptedImage(picked)) {
              setPickError(t('slips.wrongType'));
              setFile(null);
              return;
            }
            setPickError('');
            setFile(picked);
          }}
        />
        <p id={`${inputId}-name`} className="file-pick-name small">
          {file ? file.name : t('slips.noFile')}
        </p>
        {pickError && (
          <p id={`${inputId}-error`} className="field-error" role="alert">
            {pickError}
          </p>
        )}
      </div>
      {busy && (
        <div className="stack">
          <label htmlFor={`${inputId}-progress`} className="small muted">
            {t('slips.uploading', { percent: Math.round((progress ?? 0) * 100) })}
          </label>
          <progress
            id={`${inputId}-progress`}
            className="slip-progress"
            max={1}
            value={progress ?? 0}
          />
        </div>
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={!file || busy}>
        {busy ? <Spinner /> : t('slips.upload')}
      </button>
    </form>
  );
}

export default SlipUpload;
