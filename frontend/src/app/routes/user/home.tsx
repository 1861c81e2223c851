/**
 * Member home: balance card, widget grid (only built features), withdraw modal, agreement prompt.
 * Composes the wallet, withdraw, games, protection and agreement features. During a break
 * (time-out or self-exclusion) it is withdraw-only: a banner says until when, and deposit, games,
 * bonuses, invite and the wheel are not offered; money left in games can come back to the wallet.
 */
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AgreementPrompt } from '@/features/agreement/components/AgreementPrompt';
import { useWallet, walletQuery } from '@/features/wallet/api/get-wallet';
import { BalanceCard } from '@/features/wallet/components/BalanceCard';
import { WidgetGrid } from '@/features/wallet/components/WidgetGrid';
import { useSpinActive } from '@/features/promotions/api/spin';
import { refreshSlots, WALLET } from '@/features/games/api/games';
import { GameSection } from '@/features/games/components/GameSection';
import { InviteBonusBar } from '@/features/promotions/components/InviteBonusBar';
import { useProtection } from '@/features/protection/api/protection';
import { BreakBanner } from '@/features/protection/components/BreakBanner';
import { paths } from '@/lib/paths';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { usePainted } from '@/hooks/use-painted';
import { bankName, formatBankAccount } from '@/lib/bank';
import { useMoney } from '@/lib/member-currency';
import { sumMoney } from '@/lib/money';

// Loaded when first opened: the modals are not part of the home chunk.
const WithdrawModal = lazy(() =>
  import('@/features/withdraw/components/WithdrawModal').then((m) => ({ default: m.WithdrawModal })),
);
// Drawn once the games are (below): its code is not part of the first download either.
const PromoHero = lazy(() =>
  import('@/features/promotions/components/PromoHero').then((m) => ({ default: m.PromoHero })),
);
const InviteModal = lazy(() =>
  import('@/features/promotions/components/InviteModal').then((m) => ({ default: m.InviteModal })),
);
const RefundModal = lazy(() =>
  import('@/features/promotions/components/RefundModal').then((m) => ({ default: m.RefundModal })),
);
const DepositModal = lazy(() =>
  import('@/features/deposit/components/DepositModal').then((m) => ({ default: m.DepositModal })),
);
const TransferModal = lazy(() =>
  import('@/features/games/components/TransferModal').then((m) => ({ default: m.TransferModal })),
);
const SlipUpload = lazy(() =>
  import('@/features/slips/components/SlipUpload').then((m) => ({ default: m.SlipUpload })),
);

export default function HomeRoute() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('home.title'));
  const queryClient = useQueryClient();
  const wallet = useWallet();
  const [withdrawOpen, setWithdrawOpen] = useState(false);
  // Mounted from its first opening on, not before: it keeps a withdrawal's Idempotency-Key across
  // closing and opening again while the outcome is unknown (hooks/use-intent-key.ts).
  const [withdrawUsed, setWithdrawUsed] = useState(false);
  const openWithdraw = () => {
    setWithdrawUsed(true);
    setWithdrawOpen(true);
  };
  const navigate = useNavigate();
  const spinActive = useSpinActive();
  const [inviteOpen, setInviteOpen] = useState(false);
  const [refundOpen, setRefundOpen] = useState(false);
  const [depositOpen, setDepositOpen] = useState(false);
  const reloadWallet = () => void queryClient.invalidateQueries({ queryKey: walletQuery().queryKey });
  const bank = wallet.data?.bankAccount;
  // The first paint shows the balance and the front game card, the rest of the games come once it
  // is on screen (hooks/use-painted.ts, GameSection).
  const balancePainted = usePainted(!wallet.isPending);
  // The promotions hero (a request, then its banners) comes a paint after the games: on a slow
  // phone, each one's layout and artwork is then a task of its own, not one long one.
  const gamesPainted = usePainted(balancePainted);
  const protection = useProtection();
  const exclusion = protection.data?.excluded ? protection.data.exclusion : null;
  const excluded = Boolean(protection.data?.excluded);
  const money = useMoney();
  const [moveOpen, setMoveOpen] = useState(false);
  const inGames = (wallet.data?.slots ?? []).filter((slot) => slot.amount > 0);
  // Refresh-all asks every game provider, then reloads everything shown.
  const refreshAll = () =>
    void refreshSlots()
      .catch(() => undefined)
      .then(() => queryClient.invalidateQueries());

  return (
    <div className="stack-lg">
      <BalanceCard />
      {exclusion && <BreakBanner exclusion={exclusion} />}
      {!excluded && <InviteBonusBar amount={wallet.data?.invite.amount} pending={wallet.isPending} />}
      <WidgetGrid
        actions={
          excluded
            ? { withdraw: openWithdraw, refreshAll, refund: () => setRefundOpen(true) }
            : {
                deposit: () => setDepositOpen(true),
                withdraw: openWithdraw,
                // The spin widget when the wheel is on, else refresh-all (spec §2).
                ...(spinActive.data?.isActive ? { spin: () => void navigate(paths.user.spin) } : { refreshAll }),
                invite: () => setInviteOpen(true),
                bonus: () => void navigate(paths.user.bonus),
                refund: () => setRefundOpen(true),
              }
        }
      />
      {excluded && inGames.length > 0 && (
        <section className="card row-between" aria-label={t('games.title')}>
          <span>{t('protection.gameMoney', { amount: money(sumMoney(inGames.map((slot) => slot.amount))) })}</span>
          <button type="button" className="btn btn-secondary" onClick={() => setMoveOpen(true)}>
            {t('protection.gameMoneyMove')}
          </button>
        </section>
      )}
      {!excluded && gamesPainted && (
        <Suspense fallback={null}>
          <PromoHero enabled />
        </Suspense>
      )}
      {!wallet.isPending && !excluded && (
        <GameSection
          painted={balancePainted}
          slots={wallet.data?.slots ?? []}
          walletAmount={wallet.data?.wallet.amount}
          onChanged={reloadWallet}
        />
      )}
      <AgreementPrompt />
      <Suspense fallback={null}>
        {withdrawUsed && (
          <WithdrawModal
            open={withdrawOpen}
            onClose={() => setWithdrawOpen(false)}
            onSuccess={() => void queryClient.invalidateQueries({ queryKey: walletQuery().queryKey })}
            balance={wallet.data?.wallet.amount}
            bank={
              bank
                ? { name: bankName(bank.bank, i18n.language), account: formatBankAccount(bank.bankAccountNo) }
                : undefined
            }
          />
        )}
        {inviteOpen && (
          <InviteModal
            open
            onClose={() => setInviteOpen(false)}
            memberId={wallet.data?.profile._id}
            amount={wallet.data?.invite.amount}
          />
        )}
        {refundOpen && <RefundModal open onClose={() => setRefundOpen(false)} />}
        {moveOpen && (
          <TransferModal
            open
            onClose={() => setMoveOpen(false)}
            onDone={reloadWallet}
            slots={wallet.data?.slots ?? []}
            walletAmount={wallet.data?.wallet.amount}
            initialFrom={inGames[0]?.code}
            initialTo={WALLET}
          />
        )}
        {depositOpen && (
          <DepositModal
            open
            onClose={() => setDepositOpen(false)}
            onCredited={reloadWallet}
            currency={wallet.data?.wallet.currency}
            renderSlipUpload={() => (
              <Suspense fallback={null}>
                <SlipUpload onCredited={reloadWallet} />
              </Suspense>
            )}
          />
        )}
      </Suspense>
    </div>
  );
}
