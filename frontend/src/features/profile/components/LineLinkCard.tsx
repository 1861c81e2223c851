/**
 * LINE in the profile: get a one-time code to send to the operator's LINE Official Account, and
 * once linked, notices on LINE (on or off) and unlinking. Nothing shows when the site has no LINE.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/ui/CopyButton';
import { useErrorText } from '@/hooks/use-error-text';
import { formatDateTime } from '@/lib/dates';
import { useLineLink, useLineLinkCode, useLineNotices, useLineUnlink } from '../api/line-link';

export function LineLinkCard() {
  const { t } = useTranslation();
  const link = useLineLink();
  const newCode = useLineLinkCode();
  const notices = useLineNotices();
  const unlink = useLineUnlink();
  const errorText = useErrorText('lineLink');
  const [error, setError] = useState<string | null>(null);
  const onError = (e: unknown) => setError(errorText(e));

  if (!link.data?.enabled) return null;
  const state = link.data;
  const busy = newCode.isPending || notices.isPending || unlink.isPending;

  return (
    <section className="card" aria-labelledby="profile-line">
      <h2 id="profile-line" className="section-title">
        {t('profile.line.title')}
      </h2>
      {state.linked ? (
        <div className="stack">
          <p>{t('profile.line.linked', { name: state.displayName ?? '' })}</p>
          {!state.following && <p className="muted">{t('profile.line.unfollowed')}</p>}
          <label className="check">
            <input
              type="checkbox"
              checked={state.notices}
              disabled={busy}
              onChange={(e) => notices.mutate(e.target.checked, { onError })}
            />
            <span>{t('profile.line.notices')}</span>
          </label>
          <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => unlink.mutate(undefined, { onError })}>
            {t('profile.line.unlink')}
          </button>
        </div>
      ) : (
        <div className="stack">
          <p>{t('profile.line.intro')}</p>
          {state.code && (
            <dl className="details">
              <div className="details-row">
                <dt>{t('profile.line.code')}</dt>
                <dd>
                  <span className="details-value mono">{state.code}</span>
                  <CopyButton text={state.code} label={t('profile.line.code')} />
                </dd>
              </div>
            </dl>
          )}
          {state.code && state.codeExpiresAt && (
            <p className="muted">{t('profile.line.codeHelp', { time: formatDateTime(state.codeExpiresAt).slice(11, 16) })}</p>
          )}
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => newCode.mutate(undefined, { onError })}>
            {t(state.code ? 'profile.line.newCode' : 'profile.line.getCode')}
          </button>
        </div>
      )}
      <p className="form-error" role="alert" aria-live="assertive">
        {error}
      </p>
    </section>
  );
}
