/**
 * The bonus page (/user/bonus, spec §2, §4): the active bonus with its progress and a cancel
 * button (confirm dialog), otherwise the promotion-code form (upper-cased); then the bonus cards
 * (current / received / clickable), each opening the bonus modal.
 */
import './promotions.css';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/ui/Field';
import { Icon } from '@/components/ui/Icon';
import { MessageDialog } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { useErrorText } from '@/hooks/use-error-text';
import { useMoney } from '@/lib/member-currency';
import { useActiveBonus, useBonuses, useClearBonus, type BonusItem } from '../api/bonus';
import { BonusCard, type CardState } from './BonusCard';
import { BonusModal } from './BonusModal';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { receivedInPeriod } from './periods';
import { PromotionModal } from './PromotionModal';

type Dialog = { tone: 'success' | 'error'; title: string; message: string } | null;


export function cardState(bonus: BonusItem): CardState {
  const mine = bonus.userBonus;
  if (mine?.isActive) return 'current';
  if (mine && receivedInPeriod(bonus.type, mine.received) >= bonus.maxReceived) return 'received';
  return 'clickable';
}

export function BonusPage() {
  const money = useMoney();
  const { t } = useTranslation();
  const errorText = useErrorText('bonusClear');
  const bonuses = useBonuses();
  const active = useActiveBonus();
  const clear = useClearBonus();
  const [code, setCode] = useState('');
  const [searching, setSearching] = useState<string | null>(null);
  const [selected, setSelected] = useState<BonusItem | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);

  const onSubmitCode = (event: FormEvent) => {
    event.preventDefault();
    const value = code.trim().toUpperCase();
    if (value) setSearching(value);
  };

  const onClear = () =>
    clear.mutate(undefined, {
      onSuccess: (answer) => {
        setConfirmCancel(false);
        setDialog({ tone: 'success', title: t('common.saved'), message: errorText(answer.message) });
      },
      onError: (error) => {
        setConfirmCancel(false);
        setDialog({ tone: 'error', title: t('common.error'), message: errorText(error) });
      },
    });

  const current = active.data?.status ? active.data : null;
  return (
    <div className="stack-lg">
      <h1 className="page-title">{t('promotions.bonus.title')}</h1>
      {active.isLoading ? (
        <Spinner />
      ) : current ? (
        <section className="card stack" aria-labelledby="active-bonus-title">
          <h2 id="active-bonus-title" className="section-title">
            {t('promotions.bonus.active')}
          </h2>
          <p className="row-between">
            <strong>{current.name}</strong>
            <span className="badge badge-success">{t(`promotions.bonus.type.${current.type ?? 'limit'}`)}</span>
          </p>
          <dl className="details">
            <div className="details-row">
              <dt>{t('promotions.bonus.amount')}</dt>
              <dd className="details-value">{money(current.amount ?? 0)}</dd>
            </div>
            <div className="details-row">
              <dt>{t('promotions.bonus.turnover')}</dt>
              <dd className="details-value">
                {money(current.turnover ?? 0)} / {money(current.turnoverRequired ?? 0)}
              </dd>
            </div>
          </dl>
          <progress
            className="promo-progress"
            max={Math.max(current.turnoverRequired ?? 0, 1)}
            value={Math.min(current.turnover ?? 0, current.turnoverRequired ?? 0)}
            aria-label={t('promotions.bonus.turnover')}
          />
          <p className="notice notice-warning">
            <Icon name="alert" size={18} />
            {t('promotions.bonus.activeNotice', { percent: current.percentFail ?? 0 })}
          </p>
          <button type="button" className="btn btn-secondary btn-block" onClick={() => setConfirmCancel(true)}>
            {t('promotions.bonus.cancel')}
          </button>
        </section>
      ) : (
        <form className="card stack" onSubmit={onSubmitCode} noValidate aria-labelledby="promo-code-title">
          <h2 id="promo-code-title" className="section-title">
            {t('promotions.promotion.title')}
          </h2>
          <TextField
            label={t('promotions.promotion.code')}
            autoComplete="off"
            autoCapitalize="characters"
            value={code}
            onChange={(e) => setCode(e.target.value.toUpperCase())}
          />
          <button type="submit" className="btn btn-primary btn-block" disabled={!code.trim()}>
            {t('promotions.promotion.search')}
          </button>
        </form>
      )}

      <section aria-labelledby="bonus-list-title" className="stack">
        <h2 id="bonus-list-title" className="section-title">
          {t('promotions.bonus.list')}
        </h2>
        {bonuses.isLoading && <Spinner />}
        {bonuses.data?.length === 0 && <p className="empty">{t('promotions.bonus.none')}</p>}
        <ul className="promo-cards">
          {bonuses.data?.map((bonus) => {
            const state = cardState(bonus);
            const image = bonus.banners[0]?.image;
            return (
              <li key={bonus.code}>
                <BonusCard name={bonus.name} image={image} state={state} onClick={() => setSelected(bonus)} />
              </li>
            );
          })}
        </ul>
      </section>

      {selected && (
        <BonusModal
          bonus={selected}
          isCurrent={cardState(selected) === 'current'}
          onClose={() => setSelected(null)}
          onDone={(result) => {
            setSelected(null);
            setDialog(result);
          }}
        />
      )}
      {searching && (
        <PromotionModal
          code={searching}
          onClose={() => setSearching(null)}
          onDone={(result) => {
            setSearching(null);
            setCode('');
            setDialog(result);
          }}
        />
      )}
      <ConfirmDialog
        open={confirmCancel}
        title={t('promotions.bonus.cancelTitle')}
        message={t('promotions.bonus.cancelText')}
        confirmLabel={t('promotions.bonus.cancelConfirm')}
        busy={clear.isPending}
        onConfirm={onClear}
        onCancel={() => setConfirmCancel(false)}
      />
      {dialog && (
        <MessageDialog open tone={dialog.tone} title={dialog.title} message={dialog.message} onClose={() => setDialog(null)} />
      )}
    </div>
  );
}
