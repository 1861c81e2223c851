/**
 * A seamless aggregator's games (ADR 0025): they play straight from the wallet, so there is no
 * account to open, no credentials and no transfer. The modal shows the wallet balance and the
 * aggregator's games, each with a Play button that opens a fresh launch link, in the app
 * (iframe) or a new tab, per the operator's setting.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageDialog, Modal } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { useErrorText } from '@/hooks/use-error-text';
import { useMoney } from '@/lib/member-currency';
import { SITE_OR_WEB, safeUrl } from '@/lib/safe-url';
import { seamlessLaunchLink, useLaunchSettings, useSeamlessGames, type Slot } from '../api/games';
import { providerNotice } from '../provider-state';
import './games.css';

type Props = {
  slot: Slot;
  walletAmount?: number;
  onClose: () => void;
};

export function SeamlessModal({ slot, walletAmount, onClose }: Props) {
  const money = useMoney();
  const { t } = useTranslation();
  const errorText = useErrorText('gameAccount');
  const games = useSeamlessGames(slot.code);
  const settings = useLaunchSettings();
  const [launching, setLaunching] = useState<string | null>(null);
  const [frame, setFrame] = useState<{ name: string; link: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const notice = providerNotice(slot, t);

  const onPlay = async (gameCode: string, name: string) => {
    const inFrame = settings.data?.launchInIframe ?? false;
    // Open the tab inside the click, so that no pop-up blocker stops it; fill it in below.
    const tab = inFrame ? null : window.open('', '_blank');
    if (tab) tab.opener = null;
    setLaunching(gameCode);
    try {
      const link = safeUrl(await seamlessLaunchLink(gameCode), SITE_OR_WEB);
      if (!link) throw new Error('NO_GAME');
      if (tab) tab.location.href = link;
      else if (inFrame) setFrame({ name, link });
      else window.location.assign(link);
    } catch (err) {
      tab?.close();
      setError(errorText(err));
    } finally {
      setLaunching(null);
    }
  };

  if (error) {
    return (
      <MessageDialog open tone="error" title={t('common.error')} message={error} onClose={() => setError(null)} />
    );
  }
  if (frame) {
    return (
      <Modal open wide onClose={() => setFrame(null)} title={frame.name}>
        <iframe className="game-frame" src={frame.link} title={t('games.playing', { name: frame.name })} />
      </Modal>
    );
  }
  return (
    <Modal open onClose={onClose} title={slot.name} dismissible={launching === null}>
      <div className="stack">
        <p>
          {t('games.fromWallet')} · {t('games.balance', { amount: money(walletAmount ?? 0) })}
        </p>
        {notice && (
          <p className="game-provider-notice" role="status">
            <strong>{notice}</strong> {t('games.unavailableText')}
          </p>
        )}
        {games.isLoading && <Spinner />}
        {games.data && games.data.games.length === 0 && <p>{t('games.noGames')}</p>}
        <ul className="seamless-games">
          {games.data?.games.map((game) => (
            <li key={game.gameCode} className="seamless-game">
              <span>
                <strong>{game.name}</strong>
                {game.category && <span className="seamless-game-category"> · {game.category}</span>}
              </span>
              <button
                type="button"
                className="btn btn-primary"
                aria-label={t('games.playGame', { name: game.name })}
                disabled={launching !== null || notice !== null}
                onClick={() => void onPlay(game.gameCode, game.name)}
              >
                {launching === game.gameCode ? <Spinner /> : t('games.play')}
              </button>
            </li>
          ))}
        </ul>
      </div>
    </Modal>
  );
}
