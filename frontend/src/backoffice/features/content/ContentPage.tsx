/**
 * Content: what players read (contact text, conditions, agreements, notice, how-to videos,
 * invite and refund banners) and, on its second tab, the refund and invite rules. Both need
 * promotions.manage; each tab is one settings group with its own history (the tab is in the URL).
 */
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SettingsGroupEditor } from '../../components/SettingsGroupEditor';

const TABS = { content: '/api/backoffice/content', rules: '/api/backoffice/content/rules' } as const;
type Tab = keyof typeof TABS;

export default function ContentPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'rules' ? 'rules' : 'content';
  return (
    <section className="bo-page" aria-labelledby="bo-content-title">
      <header className="bo-page-head">
        <h1 id="bo-content-title">{t('bo.content.title')}</h1>
      </header>
      <div className="bo-tabs" role="tablist" aria-label={t('bo.content.title')}>
        {(Object.keys(TABS) as Tab[]).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`bo-content-tab-${name}`}
            aria-controls="bo-content-panel"
            aria-selected={tab === name}
            className={`bo-tab${tab === name ? ' bo-tab-active' : ''}`}
            onClick={() => setParams(name === 'content' ? {} : { tab: name })}
          >
            {t(`bo.content.tab.${name}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="bo-content-panel" aria-labelledby={`bo-content-tab-${tab}`}>
        <SettingsGroupEditor key={tab} path={TABS[tab]} title={t(`bo.content.tab.${tab}`)} />
      </div>
    </section>
  );
}
