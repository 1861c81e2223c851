/**
 * Game account modal (spec §2, §4): an inactive account can be opened; an active one shows its
 * credentials (with copy), resets the password, moves its balance back to the wallet
 * ('transfer only', disabled at 0), opens the transfer modal, and launches the game — in the
 * app (iframe) or a new tab, per the operator's setting.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { CopyButton } from '@/components/ui/CopyButton';
import { MessageDialog, Modal } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { useErrorText } from '@/hooks/use-error-text';
import { isDefiniteAnswer, useIntentKey } from '@/hooks/use-intent-key';
import { useMoney } from '@/lib/member-currency';
import { SITE_OR_WEB, safeUrl } from '@/lib/safe-url';
import {
  credentialsQuery,
  launchLink,
  useActivate,
  useCredentials,
  useLaunchSettings,
  useResetPassword,
  useTransfer,
  WALLET,
  type Slot,
} from '../api/games';
import { providerNotice } from '../provider-state';
import './games.css';

type Props = {
  slot: Slot;
  onClose: () => void;
  /** Balances or accounts changed: reload the wallet. */
  onChanged: () => void;
  /** Open the transfer modal with this game as the destination. */
  onTransfer: (code: string) => void;
};

type Outcome = { tone: 'success' | 'error'; title: string; message: string } | null;

export function GameAccountModal({ slot, onClose, onChanged, onTransfer }: Props) {
  const money = useMoney();
  const { t } = useTranslation();
  const errorText = useErrorText('gameAccount');
  const queryClient = useQueryClient();
  const [active, setActive] = useState(slot.isActive);
  const credentials = useCredentials(slot.code, active);
  const settings = useLaunchSettings();
  const activate = useActivate();
  const reset = useResetPassword();
  const transfer = useTransfer();
  const intent = useIntentKey();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [frame, setFrame] = useState<string | null>(null);
  const [launching, setLaunching] = useState(false);
  // Resetting makes the old password useless (a session open elsewhere, a saved login): ask first.
  const [confirmReset, setConfirmReset] = useState(false);
  const fail = (err: unknown) =>
    setOutcome({ tone: 'error', title: t('common.error'), message: errorText(err) });

  const onActivate = () =>
    activate.mutate(slot.code, {
      onSuccess: () => {
        setActive(true);
        onChanged();
      },
      onError: fail,
    });

  const onReset = () =>
    reset.mutate(slot.code, {
      onSettled: () => setConfirmReset(false),
      onSuccess: (fresh) => {
        queryClient.setQueryData(credentialsQuery(slot.code).queryKey, fresh);
        setOutcome({ tone: 'success', title: t('common.success'), message: t('games.resetDone') });
      },
      onError: fail,
    });

  const onTransferOut = () =>
    transfer.mutate(
      { from: slot.code, to: WALLET, amount: slot.amount, idempotencyKey: intent.current() },
      {
        onSuccess: (result) => {
          intent.renew();
          onChanged();
          setOutcome({
            tone: 'success',
            title: t('transfer.successTitle'),
            message:
              result.code === 'PENDING' ? t('transfer.pendingText') : t('transfer.successText'),
          });
        },
        onError: (err) => {
          if (isDefiniteAnswer(err)) intent.renew();
          onChanged();
          fail(err);
        },
      },
    );

  const onPlay = async () => {
    if (!credentials.data) return;
    const inFrame = settings.data?.launchInIframe ?? false;
    // Open the tab now, inside the click, so that no pop-up blocker stops it; fill it in below.
    const tab = inFrame ? null : window.open('', '_blank');
    if (tab) tab.opener = null;
    setLaunching(true);
    try {
      // The server's or the provider's link: opened only when it is http(s) or on this site.
      const link = safeUrl(await launchLink(slot, credentials.data), SITE_OR_WEB);
      if (!link) throw new Error('NO_GAME');
      if (tab) tab.location.href = link;
      else if (inFrame) setFrame(link);
      else window.location.assign(link);
    } catch (err) {
      tab?.close();
      fail(err);
    } finally {
      setLaunching(false);
    }
  };

  if (outcome) {
    return (
      <MessageDialog
        open
        tone={outcome.tone}
        title={outcome.title}
        message={outcome.message}
        onClose={() => setOutcome(null)}
      />
    );
  }
  if (confirmReset) {
    return (
      <ConfirmDialog
        open
        title={t('games.resetConfirmTitle')}
        message={t('games.resetConfirmText', { name: slot.name })}
        confirmLabel={t('games.resetConfirm')}
        busy={reset.isPending}
        onConfirm={onReset}
        onCancel={() => setConfirmReset(false)}
      />
    );
  }
  if (frame) {
    return (
      <Modal open wide onClose={() => setFrame(null)} title={slot.name}>
        <iframe className="game-frame" src={frame} title={t('games.playing', { name: slot.name })} />
      </Modal>
    );
  }

  const busy = activate.isPending || reset.isPending || transfer.isPending || launching;
  // A provider in maintenance or down: every action that reaches it waits (the server refuses).
  const notice = providerNotice(slot, t);
  const blocked = busy || notice !== null;
  return (
    <Modal open onClose={onClose} title={slot.name} dismissible={!busy}>
      <div className="stack">
        <img src={safeUrl(slot.logo, SITE_OR_WEB) || undefined} alt="" width={200} height={80} />
        {notice && (
          <p className="game-provider-notice" role="status">
            <strong>{notice}</strong> {t('games.unavailableText')}
          </p>
        )}
        {!active ? (
          <>
            <p>{t('games.inactiveText', { name: slot.name })}</p>
            <button
              type="button"
              className="btn btn-primary btn-block"
              onClick={onActivate}
              disabled={blocked}
            >
              {activate.isPending ? <Spinner /> : t('games.activate')}
            </button>
          </>
        ) : (
          <>
            <p>
              {t('games.balance', { amount: money(slot.amount) })}
              {slot.ftWalletSlot !== 1 &&
                ` · ${t('games.credit', {
                  factor: slot.ftWalletSlot,
                  amount: money(slot.amount * slot.ftWalletSlot),
                })}`}
            </p>
            {credentials.isLoading && <Spinner />}
            {credentials.data && (
              <div className="stack">
                {(
                  [
                    ['username', credentials.data.username],
                    ['password', credentials.data.password],
                  ] as const
                ).map(([key, value]) => (
                  <div className="cred-row" key={key}>
                    <div>
                      <p className="cred-label">{t(`games.${key}`)}</p>
                      <p className="cred-value">{value}</p>
                    </div>
                    <CopyButton text={value} label={t(`games.${key}`)} />
                  </div>
                ))}
              </div>
            )}
            <div className="game-actions">
              <button type="button" className="btn" onClick={() => setConfirmReset(true)} disabled={blocked}>
                {reset.isPending ? <Spinner /> : t('games.resetPassword')}
              </button>
              <button
                type="button"
                className="btn"
                onClick={onTransferOut}
                disabled={blocked || slot.amount <= 0}
              >
                {transfer.isPending ? <Spinner /> : t('games.transferOnly')}
              </button>
              <button
                type="button"
                className="btn"
                onClick={() => onTransfer(slot.code)}
                disabled={blocked}
              >
                {t('games.transferIn')}
              </button>
              <button
                type="button"
                className="btn btn-primary"
                onClick={() => void onPlay()}
                disabled={blocked || !credentials.data}
              >
                {launching ? <Spinner /> : t('games.play')}
              </button>
            </div>
          </>
        )}
      </div>
    </Modal>
  );
}
