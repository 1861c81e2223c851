/** The home screen's notice while a break runs: until when, what is closed, the way to the page. */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '@/components/ui/Icon';
import { paths } from '@/lib/paths';
import type { Exclusion } from '../api/protection';
import { useBreakText } from './BreakStatus';
import './protection.css';

export function BreakBanner({ exclusion }: { exclusion: Exclusion }) {
  const { t } = useTranslation();
  const text = useBreakText()(exclusion);
  return (
    <section className="notice notice-warning" aria-labelledby="break-banner">
      <Icon name="info" size={20} />
      <div className="protection-status">
        <h2 id="break-banner" className="protection-status-title">
          {t('protection.status')}
        </h2>
        <p>{text.status}</p>
        {text.more && <p className="small">{text.more}</p>}
        <p className="small">{t('protection.bannerText')}</p>
        <Link to={paths.user.protection} className="protection-link">
          {t('protection.open')}
        </Link>
      </div>
    </section>
  );
}
