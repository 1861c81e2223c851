/**
 * The games part of the home screen: three carousels (slot, sport = sport + casino, lotto),
 * a transfer button, the game account modal and the transfer modal (both loaded on first use).
 * On load it asks the providers for fresh balances (GET /api/wallet/refresh/slot).
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/Icon';
import { useOneMorePerPaint } from '@/hooks/use-painted';
import { refreshSlots, type Slot } from '../api/games';
import { CATEGORIES } from '../carousels';
import { GameCarousel } from './GameCarousel';
import './games.css';

const GameAccountModal = lazy(() =>
  import('./GameAccountModal').then((m) => ({ default: m.GameAccountModal })),
);
const SeamlessModal = lazy(() =>
  import('./SeamlessModal').then((m) => ({ default: m.SeamlessModal })),
);
const TransferModal = lazy(() =>
  import('./TransferModal').then((m) => ({ default: m.TransferModal })),
);

type Props = {
  /**
   * False for the screen's first paint: only the front card of the first carousel is drawn (the
   * one a phone's first screen can show; index.html preloads its artwork, ../carousels.ts), and
   * the providers are not asked yet. The rest follows once that paint is on screen, a carousel
   * per paint: drawn with it, the other cards' layout and artwork would hold back the balance on
   * a cheap phone, and drawn at once, they were one long task.
   */
  painted: boolean;
  slots: Slot[];
  walletAmount?: number;
  /** Reload the wallet (balances, accounts). */
  onChanged: () => void;
};

export function GameSection({ painted, slots, walletAmount, onChanged }: Props) {
  const { t } = useTranslation();
  const [openCode, setOpenCode] = useState<string | null>(null);
  const [transfer, setTransfer] = useState<{ to: string } | null>(null);
  const open = slots.find((slot) => slot.code === openCode);
  // Once the first paint is on screen: the first carousel whole, then one more per paint.
  const carousels = useOneMorePerPaint(CATEGORIES.length, painted);
  const changed = useRef(onChanged);
  useEffect(() => {
    changed.current = onChanged;
  });

  // Balances refresh on load (spec §4): ask the providers once, then reload the wallet.
  useEffect(() => {
    if (!painted) return;
    void refreshSlots().then(
      () => changed.current(),
      () => undefined,
    );
  }, [painted]);

  return (
    <section className="games-section" aria-labelledby="games-title">
      <div className="games-head">
        <h2 id="games-title" className="section-title">
          {t('games.title')}
        </h2>
        <button type="button" className="btn games-transfer" onClick={() => setTransfer({ to: '' })}>
          <Icon name="transfer" size={18} /> {t('transfer.open')}
        </button>
      </div>
      {CATEGORIES.slice(0, carousels).map((category) => (
        <GameCarousel
          key={category}
          frontOnly={!painted}
          id={`games-${category}`}
          title={t(`games.category.${category}`)}
          slots={slots.filter((slot) => slot.category === category)}
          walletAmount={walletAmount}
          onOpen={(slot) => setOpenCode(slot.code)}
        />
      ))}
      <Suspense fallback={null}>
        {open && open.mode === 'seamless' && (
          <SeamlessModal
            key={open.code}
            slot={open}
            walletAmount={walletAmount}
            onClose={() => {
              setOpenCode(null);
              // Rounds played meanwhile moved the wallet.
              onChanged();
            }}
          />
        )}
        {open && open.mode !== 'seamless' && !transfer && (
          <GameAccountModal
            key={open.code}
            slot={open}
            onClose={() => setOpenCode(null)}
            onChanged={onChanged}
            onTransfer={(code) => setTransfer({ to: code })}
          />
        )}
        {transfer && (
          <TransferModal
            open
            slots={slots}
            walletAmount={walletAmount}
            initialFrom={transfer.to ? 'WALLET' : ''}
            initialTo={transfer.to}
            onClose={() => setTransfer(null)}
            onDone={onChanged}
          />
        )}
      </Suspense>
    </section>
  );
}
