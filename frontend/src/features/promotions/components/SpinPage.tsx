/**
 * The spin page (/user/spin, spec §2, §4, §9): the wheel with its name, a centre spin button with
 * the coins left, the published odds of every slice, the coupon table (3 a page) with claim
 * buttons and each prize's details, the prize modal (with the won slice's operator-written
 * description) and the claim-confirm modal (confirm debounced 500 ms).
 */
import './promotions.css';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageDialog, Modal } from '@/components/ui/Modal';
import { Pagination } from '@/components/ui/Pagination';
import { SafeHtml } from '@/components/ui/SafeHtml';
import { Spinner } from '@/components/ui/Spinner';
import { useErrorText } from '@/hooks/use-error-text';
import { isDefiniteAnswer, useIntentKey } from '@/hooks/use-intent-key';
import { formatDateTime } from '@/lib/dates';
import { useMoney, useMoneyUnit } from '@/lib/member-currency';
import { pageCount } from '@/lib/pagination';
import { useClaimCoupon, useCoupons, useSpin, useWheelSetup, type Coupon, type SpinAnswer, type WheelSetup } from '../api/spin';
import { useWheelSize } from '../hooks/use-wheel-size';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { WheelCanvas } from '@/components/wheel/WheelCanvas';
import { angleAt, planSpin } from './wheel-motion';

export const COUPON_PAGE_SIZE = 3;
export const CLAIM_DEBOUNCE_MS = 500;
/** How long the won slice and the burst show before the prize dialog opens. */
export const REVEAL_MS = 1600;

/** A spin's result with the description of the slice it won (empty when the operator wrote none). */
type Won = SpinAnswer['result'] & { htmlDescription: string };

/**
 * The description of the won slice, read from the setup the wheel was spun with. The slice at the
 * result's index must carry the result's code: if the wheel was edited since the page loaded,
 * a stale slice's text is not shown as this prize's.
 */
function wonDescription(slices: WheelSetup['slice'], result: SpinAnswer['result']): string {
  const slice = slices[result.index];
  return slice?.code === result.code ? slice.htmlDescription : '';
}

function percent(probability: number): string {
  return `${(probability * 100).toFixed(probability > 0 && probability < 0.01 ? 2 : 1)}%`;
}

export function SpinPage() {
  const money = useMoney();
  const unit = useMoneyUnit();
  const { t } = useTranslation();
  const errorText = useErrorText('spin');
  const queryClient = useQueryClient();
  const setup = useWheelSetup();
  const coupons = useCoupons();
  const spin = useSpin();
  const claim = useClaimCoupon();
  const spinIntent = useIntentKey();
  const claimIntent = useIntentKey();
  const size = useWheelSize();
  const [angle, setAngle] = useState(0);
  const [spinning, setSpinning] = useState(false);
  const [prize, setPrize] = useState<Won | null>(null);
  // The prize the wheel has just stopped on: its slice is lit and it is announced, then the dialog.
  const [reveal, setReveal] = useState<Won | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Coupon | null>(null);
  const [claimed, setClaimed] = useState<string | null>(null);
  // The coupon whose prize description is open (a prize's "how to collect it" outlives the spin).
  const [details, setDetails] = useState<Coupon | null>(null);
  const frame = useRef<number>(0);
  const debounce = useRef<number | undefined>(undefined);
  const revealTimer = useRef<number | undefined>(undefined);

  useEffect(
    () => () => {
      cancelAnimationFrame(frame.current);
      window.clearTimeout(debounce.current);
      window.clearTimeout(revealTimer.current);
    },
    [],
  );

  const data = setup.data;
  const coins = data?.userCoin ?? 0;
  // Between the stop and the prize dialog: the reveal plays; no new spin meanwhile.
  const revealing = reveal !== null && prize === null;

  const onSpin = () => {
    if (spinning || revealing || !data || coins <= 0) return;
    setReveal(null);
    setSpinning(true);
    spin.mutate(spinIntent.current(), {
      onSuccess: (answer) => {
        spinIntent.renew();
        const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
        const motion = planSpin(angle, answer.result.index, data.slice.length);
        const won: Won = { ...answer.result, htmlDescription: wonDescription(data.slice, answer.result) };
        const land = () => {
          setSpinning(false);
          setReveal(won);
          void queryClient.invalidateQueries({ queryKey: ['spin'] });
          // Reduced motion: no spin, no burst, the prize at once.
          revealTimer.current = window.setTimeout(() => setPrize(won), reduced ? 0 : REVEAL_MS);
        };
        if (reduced) {
          setAngle(motion.to);
          land();
          return;
        }
        const started = performance.now();
        const step = (now: number) => {
          const elapsed = now - started;
          setAngle(angleAt(motion, elapsed));
          if (elapsed < motion.durationMs) frame.current = requestAnimationFrame(step);
          else land();
        };
        frame.current = requestAnimationFrame(step);
      },
      onError: (err) => {
        if (isDefiniteAnswer(err)) spinIntent.renew();
        setSpinning(false);
        setError(errorText(err));
        void queryClient.invalidateQueries({ queryKey: ['spin'] });
      },
    });
  };

  const closePrize = () => {
    setPrize(null);
    setReveal(null);
  };

  const onConfirmClaim = () => {
    // Debounced: a burst of clicks within 500 ms sends one claim.
    window.clearTimeout(debounce.current);
    debounce.current = window.setTimeout(() => {
      const coupon = selected;
      if (!coupon || claim.isPending) return;
      claim.mutate(
        { coupon: coupon.coupon, idempotencyKey: claimIntent.current() },
        {
          onSuccess: (answer) => {
            claimIntent.renew();
            setSelected(null);
            setClaimed(t('promotions.spin.claimed', { prize: answer.prize.slice.label }));
          },
          onError: (err) => {
            if (isDefiniteAnswer(err)) claimIntent.renew();
            setSelected(null);
            setError(errorText(err, 'couponClaim'));
          },
        },
      );
    }, CLAIM_DEBOUNCE_MS);
  };

  if (setup.isLoading) return <Spinner />;
  if (!data) {
    return (
      <div className="stack-lg">
        <h1 className="page-title">{t('promotions.spin.title')}</h1>
        <p className="empty">{setup.error ? errorText(setup.error) : t('promotions.spin.inactive')}</p>
      </div>
    );
  }

  const list = coupons.data ?? [];
  const shown = list.slice((page - 1) * COUPON_PAGE_SIZE, page * COUPON_PAGE_SIZE);
  return (
    <div className="stack-lg">
      <h1 className="page-title">{data.name}</h1>
      <div className="wheel-stage" style={{ width: size, height: size }}>
        <WheelCanvas
          slices={data.slice}
          angle={angle}
          size={size}
          highlight={reveal?.index ?? null}
          label={t('promotions.spin.wheelLabel', { name: data.name })}
        />
        <button
          type="button"
          className="wheel-button"
          onClick={onSpin}
          disabled={spinning || revealing || coins <= 0}
          aria-label={t('promotions.spin.spinButton', { count: coins })}
        >
          <span>{t('promotions.spin.spin')}</span>
          <span className="small">{t('promotions.spin.coins', { count: coins })}</span>
        </button>
        {revealing && (
          <div className="wheel-reveal" aria-hidden="true">
            {Array.from({ length: 14 }, (_, i) => (
              <span key={i} className="wheel-spark" style={{ '--turn': `${i * (360 / 14)}deg` } as CSSProperties} />
            ))}
            <span className="wheel-reveal-label">{reveal.label}</span>
          </div>
        )}
      </div>
      <p className="visually-hidden" role="status">
        {spinning ? t('promotions.spin.spinning') : reveal ? t('promotions.spin.landed', { prize: reveal.label }) : ''}
      </p>
      <p className="small muted">{t('promotions.spin.coinRule')}</p>

      <section aria-labelledby="odds-title" className="stack">
        <h2 id="odds-title" className="section-title">
          {t('promotions.spin.odds')}
        </h2>
        <table className="promo-table">
          <thead>
            <tr>
              <th scope="col">{t('promotions.spin.prize')}</th>
              <th scope="col">{t('promotions.spin.chance')}</th>
            </tr>
          </thead>
          <tbody>
            {data.odds.map((row) => (
              <tr key={row.code}>
                <td>{row.label}</td>
                <td>{percent(row.probability)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="coupons-title" className="stack">
        <h2 id="coupons-title" className="section-title">
          {t('promotions.spin.coupons')}
        </h2>
        {list.length === 0 && <p className="empty">{t('promotions.spin.noCoupons')}</p>}
        {list.length > 0 && (
          <table className="promo-table">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">{t('promotions.spin.prize')}</th>
                <th scope="col">{t('promotions.amount')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('promotions.spin.claim')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((coupon, index) => (
                <tr key={coupon._id}>
                  <td>{(page - 1) * COUPON_PAGE_SIZE + index + 1}</td>
                  <td>
                    <strong>{coupon.prize.slice.label}</strong>
                    <br />
                    <span className="small">{coupon.prize.name}</span>
                    <br />
                    <span className="small muted">{t('promotions.spin.expires', { time: formatDateTime(coupon.expiresAt) })}</span>
                    {coupon.prize.slice.htmlDescription && (
                      <>
                        <br />
                        <button
                          type="button"
                          className="btn btn-ghost coupon-details"
                          onClick={() => setDetails(coupon)}
                          aria-label={t('promotions.spin.detailsLabel', { prize: coupon.prize.slice.label })}
                        >
                          {t('promotions.spin.details')}
                        </button>
                      </>
                    )}
                  </td>
                  <td>{money(coupon.amount)}</td>
                  <td>
                    {coupon.claimable ? (
                      <button
                        type="button"
                        className="btn btn-primary"
                        onClick={() => setSelected(coupon)}
                        aria-label={t('promotions.spin.claimLabel', { prize: coupon.prize.slice.label })}
                      >
                        {t('promotions.spin.claim')}
                      </button>
                    ) : (
                      <span className="badge">{t(`promotions.spin.status.${coupon.status}`)}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pagination page={page} count={pageCount(list.length, COUPON_PAGE_SIZE)} onChange={setPage} />
      </section>

      {prize && (
        <Modal
          open
          onClose={closePrize}
          title={t('promotions.spin.resultTitle')}
          footer={
            <button type="button" className="btn btn-primary btn-block" onClick={closePrize} data-autofocus>
              {t('common.ok')}
            </button>
          }
        >
          <p className="wheel-result">{prize.label}</p>
          {prize.htmlDescription && <SafeHtml html={prize.htmlDescription} className="wheel-result-description prose" />}
          <p>{prize.coupon ? t('promotions.spin.wonCoupon') : t('promotions.spin.noPrize')}</p>
          <p className="small muted">{t('promotions.spin.coins', { count: prize.remainingCoin })}</p>
        </Modal>
      )}
      {details && (
        <Modal
          open
          onClose={() => setDetails(null)}
          title={details.prize.slice.label}
          footer={
            <button type="button" className="btn btn-primary btn-block" onClick={() => setDetails(null)} data-autofocus>
              {t('common.ok')}
            </button>
          }
        >
          <SafeHtml html={details.prize.slice.htmlDescription} className="wheel-result-description prose" />
        </Modal>
      )}
      <ConfirmDialog
        open={selected !== null}
        title={t('promotions.spin.claimTitle')}
        message={t('promotions.spin.claimText', {
          prize: selected?.prize.slice.label ?? '',
          amount: money(selected?.amount ?? 0),
          unit,
        })}
        confirmLabel={t('promotions.spin.claim')}
        busy={claim.isPending}
        onConfirm={onConfirmClaim}
        onCancel={() => setSelected(null)}
      />
      {claimed && (
        <MessageDialog open tone="success" title={t('common.success')} message={claimed} onClose={() => setClaimed(null)} />
      )}
      {error && <MessageDialog open tone="error" title={t('common.error')} message={error} onClose={() => setError(null)} />}
    </div>
  );
}
