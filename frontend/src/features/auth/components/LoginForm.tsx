/** Login: phone and password, inline error cleared on input, 'remember me', register link. */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { TextField } from '@/components/ui/Field';
import { Spinner } from '@/components/ui/Spinner';
import { useErrorText } from '@/hooks/use-error-text';
import { paths, redirectTarget } from '@/lib/paths';
import { useLogin } from '../api/login';

export function LoginForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const errorText = useErrorText('login');
  const login = useLogin();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(true);
  const [error, setError] = useState('');

  const ready = username.trim() !== '' && password !== '';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || login.isPending) return;
    setError('');
    login.mutate(
      { username: username.trim(), password, remember },
      {
        onSuccess: () => void navigate(redirectTarget(location.search), { replace: true }),
        onError: (err) => setError(errorText(err)),
      },
    );
  };

  const edit = (setter: (v: string) => void) => (value: string) => {
    setter(value);
    if (error) setError('');
  };

  return (
    <form className="card form" onSubmit={onSubmit} noValidate>
      <div className="form-intro">
        <h1 className="page-title">{t('login.title')}</h1>
        <p className="muted">{t('login.subtitle')}</p>
      </div>
      <TextField
        label={t('login.phone')}
        type="tel"
        inputMode="numeric"
        autoComplete="username"
        value={username}
        onChange={(e) => edit(setUsername)(e.target.value)}
        required
      />
      <TextField
        label={t('login.password')}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => edit(setPassword)(e.target.value)}
        required
      />
      <label className="check">
        <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
        <span>{t('login.remember')}</span>
      </label>
      <p className="form-error" role="alert" aria-live="assertive">
        {error}
      </p>
      <button type="submit" className="btn btn-primary btn-block" disabled={!ready || login.isPending}>
        {login.isPending ? <Spinner /> : t('login.submit')}
      </button>
      <p className="form-alt">
        {t('login.noAccount')} <Link to={paths.register}>{t('login.register')}</Link>
      </p>
    </form>
  );
}
