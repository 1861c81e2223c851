/**
 * The frame of the screens a staff member meets before the back office itself: the sign-in
 * (features/login) and the idle lock (features/sessions). The brand, the language choice and
 * one card for the form.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from './LanguageSelect';

export function SignInFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="bo-login">
      <header className="bo-login-head">
        <span className="bo-brand">
          <span className="bo-logo" aria-hidden="true">
            P
          </span>
          {t('bo.appName')}
        </span>
        <LanguageSelect />
      </header>
      <main className="bo-login-card">{children}</main>
    </div>
  );
}
