/** The shared countdown (hooks/use-countdown), where the deposit panels import it. */
export { formatMmSs, useCountdown } from '@/hooks/use-countdown';
