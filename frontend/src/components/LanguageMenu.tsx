/** Language dropdown (th / la / en); the current language is shown disabled in the list. */
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLocale, currentLocale } from '@/lib/i18n';
import { LOCALES, languageTag, type Locale } from '@/lib/locales';
import { Icon } from './ui/Icon';

export function LanguageMenu({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const listId = useId();
  const locale = currentLocale();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        root.current?.querySelector<HTMLButtonElement>('button')?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    root.current?.querySelector<HTMLButtonElement>('li button:not([disabled])')?.focus();
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const choose = (next: Locale) => {
    setOpen(false);
    void changeLocale(next);
  };

  return (
    <div className="lang-menu" ref={root}>
      <button
        type="button"
        className={compact ? 'lang-trigger lang-trigger-compact' : 'lang-trigger'}
        aria-expanded={open}
        aria-controls={listId}
        aria-label={t('language.change', { language: t(`language.${locale}`) })}
        onClick={() => setOpen((v) => !v)}
      >
        <Icon name="globe" size={18} />
        <span lang={languageTag(locale)}>{t(`language.${locale}`)}</span>
        <Icon name="chevronDown" size={16} />
      </button>
      {open && (
        <ul id={listId} className="lang-list">
          {LOCALES.map((item) => (
            <li key={item}>
              <button
                type="button"
                lang={languageTag(item)}
                disabled={item === locale}
                aria-current={item === locale ? 'true' : undefined}
                onClick={() => choose(item)}
              >
                {t(`language.${item}`)}
                {item === locale && <Icon name="check" size={16} />}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
