/** The play-limits screen (issue 33 §4): a running break, deposit and loss limits, the reality
 * check's interval, take a break. */
import { useTranslation } from 'react-i18next';
import { DelayedSpinner } from '@/components/ui/Spinner';
import { useProtection } from '../api/protection';
import { BreakForm } from './BreakForm';
import { BreakStatus } from './BreakStatus';
import { LimitsForm } from './LimitsForm';
import { RealityCheckForm } from './RealityCheckForm';
import './protection.css';

export function ProtectionView() {
  const { t } = useTranslation();
  const protection = useProtection();

  if (protection.isPending) return <DelayedSpinner />;
  if (!protection.data) return null;
  const { limits, lossLimits, excluded, exclusion, realityCheckMinutes } = protection.data;
  return (
    <div className="stack-lg">
      <div className="stack">
        <h1 className="page-title">{t('protection.title')}</h1>
        <p className="muted">{t('protection.intro')}</p>
      </div>
      {excluded && exclusion && <BreakStatus exclusion={exclusion} />}
      <LimitsForm kind="deposit" limits={limits} />
      <LimitsForm kind="loss" limits={lossLimits} />
      <RealityCheckForm minutes={realityCheckMinutes} />
      <BreakForm excluded={excluded} />
    </div>
  );
}
