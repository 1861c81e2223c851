/**
 * Site settings (owners: settings.manage): withdrawal limits and auto-approval, the second
 * approval of adjustments, the hold after a bank change, slips and QR, OTP and login throttles,
 * registration OTP, chat flags, games in the app, the time zone and closing the site (asked
 * first). One settings group with its history.
 */
import { useTranslation } from 'react-i18next';
import { SettingsGroupEditor } from '../../components/SettingsGroupEditor';

export default function SettingsPage() {
  const { t } = useTranslation();
  return (
    <section className="bo-page" aria-labelledby="bo-settings-title">
      <header className="bo-page-head">
        <h1 id="bo-settings-title">{t('bo.settingsPage.title')}</h1>
      </header>
      <SettingsGroupEditor path="/api/backoffice/settings" title={t('bo.settingsPage.title')} />
    </section>
  );
}
