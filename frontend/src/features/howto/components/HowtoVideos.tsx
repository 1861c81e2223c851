/** Five how-to videos (spec §2); each opens in a modal player. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/Icon';
import { Modal } from '@/components/ui/Modal';
import { DelayedSpinner } from '@/components/ui/Spinner';
import { SITE_OR_WEB, safeUrl } from '@/lib/safe-url';
import { howtoQuery } from '../api/howto';

export const HOWTO_KEYS = ['wallet', 'enter_game', 'check_balance', 'receive_bonus', 'end_bonus'] as const;
type HowtoKey = (typeof HOWTO_KEYS)[number];

/** YouTube links play in its embed player; anything else is a plain video file. */
export function youtubeEmbed(url: string): string | null {
  const match = /(?:youtube\.com\/(?:watch\?v=|embed\/|shorts\/)|youtu\.be\/)([\w-]{6,})/.exec(url);
  return match ? `https://www.youtube-nocookie.com/embed/${match[1]}?autoplay=1&rel=0` : null;
}

export function HowtoVideos() {
  const { t } = useTranslation();
  const videos = useQuery(howtoQuery());
  const [playing, setPlaying] = useState<HowtoKey | null>(null);
  // The video that failed to load (a missing file answers 404): said, not a silent 0:00 player.
  const [failed, setFailed] = useState<HowtoKey | null>(null);
  if (videos.isPending) return <DelayedSpinner />;
  const urls = new Map((videos.data ?? []).map((video) => [video.key, video.url]));
  const url = playing ? safeUrl(urls.get(playing), SITE_OR_WEB) : null;
  const embed = url ? youtubeEmbed(url) : null;
  const title = playing ? t(`howto.videos.${playing}`) : '';

  return (
    <>
      <ul className="video-list">
        {HOWTO_KEYS.map((key, index) => (
          <li key={key}>
            <button type="button" className="video-card" onClick={() => setPlaying(key)}>
              <span className="video-thumb" aria-hidden="true">
                <Icon name="play" size={26} />
              </span>
              <span className="video-meta">
                <span className="video-index">{index + 1}</span>
                <span className="video-title">{t(`howto.videos.${key}`)}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      <Modal open={playing !== null} onClose={() => setPlaying(null)} title={title} wide>
        {!url ? (
          <p className="muted">{t('howto.unavailable')}</p>
        ) : failed === playing ? (
          <p className="notice notice-warning" role="alert">
            {t('howto.failed')}
          </p>
        ) : embed ? (
          <div className="video-frame">
            <iframe src={embed} title={title} allow="autoplay; encrypted-media; picture-in-picture" allowFullScreen />
          </div>
        ) : (
          <div className="video-frame video-file">
            {/* eslint-disable-next-line jsx-a11y/media-has-caption -- the operator's videos come without caption files */}
            <video src={url} controls autoPlay playsInline aria-label={title} onError={() => setFailed(playing)} />
          </div>
        )}
      </Modal>
    </>
  );
}
