/**
 * Staff sign-in: login and password, then the authenticator's code; at the first sign-in (or
 * after a reset) the enrolment instead: the QR code and the secret, and its first code.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import type { components } from '@/api/schema.gen';
import { CopyButton } from '@/components/ui/CopyButton';
import { TextField } from '@/components/ui/Field';
import { SignInFrame } from '../../components/SignInFrame';
import { boApi } from '../../lib/api';
import { meQuery, useMe, type LoginState } from '../../lib/auth';
import { useBoErrorText } from '../../lib/errors';
import { forgetLock } from '../../lib/lock';
import { setStaffToken } from '../../lib/session';

type Step = components['schemas']['LoginStepOut'];

function PasswordStep({ onNext }: { onNext: (step: Step) => void }) {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const submit = useMutation({
    mutationFn: () => boApi.post('/api/backoffice/auth/login', { login: login.trim(), password }),
    onSuccess: onNext,
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate();
  };
  return (
    <form className="bo-form" onSubmit={onSubmit} noValidate>
      <h1 className="bo-login-title">{t('bo.login.title')}</h1>
      <TextField
        label={t('bo.login.login')}
        name="username"
        autoComplete="username"
        required
        value={login}
        onChange={(event) => setLogin(event.target.value)}
        autoFocus
      />
      <TextField
        label={t('bo.login.password')}
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      {submit.isError && (
        <p className="bo-error" role="alert">
          {errorText(submit.error)}
        </p>
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={!login.trim() || !password || submit.isPending}>
        {t('bo.login.submit')}
      </button>
    </form>
  );
}

function CodeStep({ step, onRestart }: { step: Step; onRestart: () => void }) {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [code, setCode] = useState('');
  const submit = useMutation({
    mutationFn: () => boApi.post('/api/backoffice/auth/totp', { ticket: step.ticket, code }),
    onSuccess: (started) => {
      setStaffToken(started.token);
      // A new session starts unlocked, whatever an old one left behind.
      forgetLock();
      queryClient.setQueryData(meQuery().queryKey, started.staff);
      const from = (location.state as LoginState | null)?.from;
      void navigate(from && from !== '/login' ? from : '/', { replace: true });
    },
  });
  const enrolment = step.step === 'enrol' ? step.enrolment : null;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate();
  };
  return (
    <form className="bo-form" onSubmit={onSubmit} noValidate>
      <h1 className="bo-login-title">{t(enrolment ? 'bo.login.enrolTitle' : 'bo.login.codeTitle')}</h1>
      {enrolment ? (
        <div className="bo-enrol">
          <p className="bo-muted">{t('bo.login.enrolHint')}</p>
          <EnrolmentCard secret={enrolment.secret} qr={enrolment.qr} />
        </div>
      ) : (
        <p className="bo-muted">{t('bo.login.codeHint')}</p>
      )}
      <TextField
        label={t('bo.login.code')}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={6}
        required
        value={code}
        onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
        autoFocus
      />
      {submit.isError && (
        <p className="bo-error" role="alert">
          {errorText(submit.error)}
        </p>
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={code.length !== 6 || submit.isPending}>
        {t(enrolment ? 'bo.login.enrolSubmit' : 'bo.login.verify')}
      </button>
      <button type="button" className="bo-link" onClick={onRestart}>
        {t('bo.login.restart')}
      </button>
    </form>
  );
}

/** The QR code to scan and the secret to type instead (also shown once to whoever adds staff). */
export function EnrolmentCard({ secret, qr }: { secret: string; qr: string }) {
  const { t } = useTranslation();
  return (
    <div className="bo-enrol-card">
      <img className="bo-qr" src={qr} alt={t('bo.login.qrAlt')} width={176} height={176} />
      <div className="bo-secret">
        <span className="bo-muted">{t('bo.login.secret')}</span>
        <span className="bo-secret-row">
          <code>{secret.replace(/(.{4})/g, '$1 ').trim()}</code>
          <CopyButton text={secret} label={t('bo.login.secretLabel')} />
        </span>
      </div>
    </div>
  );
}

export default function LoginPage() {
  const { t } = useTranslation();
  const { me } = useMe();
  const location = useLocation();
  const [step, setStep] = useState<Step | null>(null);
  if (me) return <Navigate to="/" replace />;
  const ended = (location.state as LoginState | null)?.ended;
  return (
    <SignInFrame>
      {ended && !step && (
        <p className="bo-notice" role="status">
          {t('bo.login.ended')}
        </p>
      )}
      {step ? <CodeStep key={step.ticket} step={step} onRestart={() => setStep(null)} /> : <PasswordStep onNext={setStep} />}
    </SignInFrame>
  );
}
