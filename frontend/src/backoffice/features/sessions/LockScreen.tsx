/**
 * The lock screen: the session is locked (idle, or locked by hand) and only the password opens
 * it again while it lives; no TOTP. Wrong passwords are counted by the server, which ends the
 * session at the fifth (the login screen follows, "your session ended"). Signing out from here
 * ends it for good. Nothing of the back office shows behind it: its screens are not mounted.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/ui/Field';
import { Icon } from '@/components/ui/Icon';
import { ApiError } from '@/lib/errors';
import { SignInFrame } from '../../components/SignInFrame';
import { boApi } from '../../lib/api';
import { meQuery, useLogout } from '../../lib/auth';
import { useBoErrorText } from '../../lib/errors';
import { markUnlocked } from '../../lib/lock';
import type { Me } from '../../lib/permissions';

export function LockScreen() {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const queryClient = useQueryClient();
  const logout = useLogout();
  const me = queryClient.getQueryData<Me>(meQuery().queryKey);
  const [password, setPassword] = useState('');
  const unlock = useMutation({
    mutationFn: () => boApi.post('/api/backoffice/auth/unlock', { password }),
    onSuccess: (fresh) => {
      queryClient.setQueryData(meQuery().queryKey, fresh);
      markUnlocked();
      // What changed while locked (the queue above all) is fetched again.
      void queryClient.invalidateQueries();
    },
    onError: () => setPassword(''),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password) unlock.mutate();
  };
  // The server counts the tries (its answer says how many are left); five end the session.
  const wrong = unlock.error instanceof ApiError && unlock.error.code === 'WRONG_CREDENTIAL';
  return (
    <SignInFrame>
      <form className="bo-form" onSubmit={submit} noValidate aria-labelledby="bo-lock-title">
        <h1 id="bo-lock-title" className="bo-login-title bo-lock-title">
          <Icon name="lock" size={22} />
          {t('bo.lock.title')}
        </h1>
        <p className="bo-muted">{me ? t('bo.lock.hintNamed', { name: me.displayName }) : t('bo.lock.hint')}</p>
        <TextField
          label={t('bo.lock.password')}
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          autoFocus
        />
        {unlock.isError && (
          <p className="bo-error" role="alert">
            {wrong ? t('bo.lock.wrong') : errorText(unlock.error)}
          </p>
        )}
        <button type="submit" className="btn btn-primary btn-block" disabled={!password || unlock.isPending}>
          {t('bo.lock.unlock')}
        </button>
        <button type="button" className="bo-link" onClick={() => void logout()}>
          {t('bo.lock.signOut')}
        </button>
      </form>
    </SignInFrame>
  );
}
