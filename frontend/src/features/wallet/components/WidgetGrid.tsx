/**
 * The home widget grid (spec §2). A widget appears only when its action is passed in: features
 * not built yet (deposit, spin, invite, bonus, refund) stay hidden instead of showing dead buttons.
 */
import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from '@/components/ui/Icon';

export type WidgetActions = Partial<
  Record<'deposit' | 'withdraw' | 'spin' | 'refreshAll' | 'invite' | 'bonus' | 'refund', () => void>
>;

const WIDGETS: { key: keyof WidgetActions; icon: IconName }[] = [
  { key: 'deposit', icon: 'arrowDown' },
  { key: 'withdraw', icon: 'withdraw' },
  { key: 'spin', icon: 'refresh' },
  { key: 'refreshAll', icon: 'refresh' },
  { key: 'invite', icon: 'user' },
  { key: 'bonus', icon: 'gift' },
  { key: 'refund', icon: 'transfer' },
];

export function WidgetGrid({ actions }: { actions: WidgetActions }) {
  const { t } = useTranslation();
  const shown = WIDGETS.filter((widget) => actions[widget.key]);
  if (shown.length === 0) return null;
  return (
    <section aria-labelledby="widgets-title">
      <h2 id="widgets-title" className="section-title">
        {t('home.menu')}
      </h2>
      <ul className="widget-grid">
        {shown.map((widget) => (
          <li key={widget.key}>
            <button type="button" className="widget" onClick={actions[widget.key]}>
              <span className="widget-icon">
                <Icon name={widget.icon} size={26} />
              </span>
              <span>{t(`home.${widget.key}`)}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
