/**
 * Registration in 4 steps (spec §2, §4, §5): 1 phone, 2 OTP (skipped when registerOTP is off or the
 * phone is already verified), 3 profile (validated by the server), 4 bank; then /login after 2 s.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { lookupQueries } from '@/api/lookups';
import { SelectField, TextField } from '@/components/ui/Field';
import { Icon } from '@/components/ui/Icon';
import { Spinner } from '@/components/ui/Spinner';
import { useToast } from '@/components/ui/Toast';
import { useCountdown } from '@/hooks/use-countdown';
import { useErrorText } from '@/hooks/use-error-text';
import { bankName, isEnglishName, joinAccountName, needsEnglishName } from '@/lib/bank';
import { env } from '@/lib/env';
import { ApiError } from '@/lib/errors';
import { paths } from '@/lib/paths';
import { removeLocal, STORAGE_KEYS } from '@/lib/storage';
import {
  useCreateAccount,
  useSendOtp,
  useValidateAccount,
  useVerifyOtp,
  type RegisterPayload,
} from '../api/register';
import { useInviteCode } from '../hooks/use-invite-code';

export const PHONE_LENGTH = 10;
export const REDIRECT_AFTER_MS = 2000;
const STEP_KEYS = ['phone', 'otp', 'profile', 'bank'] as const;
type Step = 1 | 2 | 3 | 4;
type Currency = 'LAK' | 'BAHT';

const digitsOnly = (value: string) => value.replace(/\D/g, '');

const BANK_FIELDS = ['bankCode', 'bankAccountName', 'bankAccountNo'];
function isMissingBankField(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'KEY_MISSING' && BANK_FIELDS.includes(error.field ?? '');
}

export function RegisterWizard() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  const errorText = useErrorText('register');
  const invite = useInviteCode();

  const [step, setStep] = useState<Step>(1);
  const [phone, setPhone] = useState('');
  const [phoneError, setPhoneError] = useState('');
  const [otp, setOtp] = useState({ ref: '', token: '' });
  const [otpCode, setOtpCode] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [sourceCode, setSourceCode] = useState('');
  const [inviteCode, setInviteCode] = useState(invite.code);
  const [bankCode, setBankCode] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [accountNo, setAccountNo] = useState('');
  const [currency, setCurrency] = useState<Currency>('LAK');
  const [nameError, setNameError] = useState(false);
  const [done, setDone] = useState(false);
  // When the server takes another OTP request for this phone (epoch ms): the resend button
  // counts down to it instead of asking early and meeting 429.
  const [resendAt, setResendAt] = useState<number | null>(null);
  const resendIn = useCountdown(resendAt);

  const sendOtp = useSendOtp();
  const verifyOtp = useVerifyOtp();
  const validate = useValidateAccount();
  const create = useCreateAccount();
  const sources = useQuery({ ...lookupQueries.sources(i18n.language), enabled: step >= 3 });
  const banks = useQuery({ ...lookupQueries.banks(), enabled: step >= 3 });

  useEffect(() => {
    if (!done) return;
    const id = window.setTimeout(() => void navigate(paths.login, { replace: true }), REDIRECT_AFTER_MS);
    return () => window.clearTimeout(id);
  }, [done, navigate]);

  const fail = (error: unknown) => toast(errorText(error), 'danger');

  const payload = (): RegisterPayload => ({
    name: name.trim(),
    username: phone,
    password,
    sourceCode: sourceCode || null,
    inviteCode: inviteCode.trim() || null,
    bankCode,
    bankAccountName: joinAccountName(firstName, lastName),
    bankAccountNo: accountNo,
    currency: env.lao ? currency : null,
    otpToken: otp.token || null,
  });

  const requestOtp = async () => {
    let answer;
    try {
      answer = await sendOtp.mutateAsync(phone);
    } catch (error) {
      if (error instanceof ApiError && error.retryAfter) setResendAt(Date.now() + error.retryAfter * 1000);
      throw error;
    }
    setResendAt(answer.resendIn > 0 ? Date.now() + answer.resendIn * 1000 : null);
    if (answer.code === 'OTP_VERIFIED') {
      setOtp({ ref: answer.otpRef, token: answer.otpToken ?? '' });
      setStep(3);
    } else {
      setOtp({ ref: answer.otpRef, token: answer.otpToken ?? '' });
      setOtpCode('');
      setStep(2);
    }
  };

  const submitPhone = async (event: FormEvent) => {
    event.preventDefault();
    if (!env.lao && phone.length !== PHONE_LENGTH) {
      setPhoneError(t('register.phoneLength'));
      return;
    }
    if (!phone) return;
    setPhoneError('');
    try {
      const { registerOTP } = await queryClient.fetchQuery(lookupQueries.registerOtp());
      if (!registerOTP) {
        setOtp({ ref: '', token: '' });
        setStep(3);
        return;
      }
      await requestOtp();
    } catch (error) {
      fail(error);
    }
  };

  const submitOtp = (event: FormEvent) => {
    event.preventDefault();
    if (!otpCode) return;
    verifyOtp.mutate({ otpToken: otp.token, otpCode }, { onSuccess: () => setStep(3), onError: fail });
  };

  const profileReady = name.trim() !== '' && phone !== '' && password !== '' && confirm !== '';
  const submitProfile = (event: FormEvent) => {
    event.preventDefault();
    if (!profileReady) return;
    if (password !== confirm) {
      setMismatch(true);
      return;
    }
    validate.mutate(payload(), {
      onSuccess: () => setStep(4),
      // A server that checks the whole form at once can only say the bank part is missing at
      // this step; that part comes next, and the final registration checks everything again.
      onError: (error) => (isMissingBankField(error) ? setStep(4) : fail(error)),
    });
  };

  // The server lists the variant's banks (the Thai site: Thai ones only); a Lao member opening a
  // kip wallet picks among the Lao banks, one opening a baht wallet among all of them.
  const listedBanks = (banks.data ?? []).filter(
    (bank) => !env.lao || currency === 'BAHT' || bank.country === 'LA',
  );
  const accountName = joinAccountName(firstName, lastName);
  const bankReady =
    bankCode !== '' && firstName.trim() !== '' && lastName.trim() !== '' && accountNo !== '';
  const submitBank = (event: FormEvent) => {
    event.preventDefault();
    if (!bankReady || done) return;
    if (needsEnglishName(bankCode) && !isEnglishName(accountName)) {
      setNameError(true);
      return;
    }
    create.mutate(payload(), {
      onSuccess: () => {
        removeLocal(STORAGE_KEYS.inviteCode);
        toast(t('register.success'), 'success');
        setDone(true);
      },
      onError: fail,
    });
  };

  const upper = (setter: (v: string) => void) => (value: string) => {
    setter(value.toUpperCase());
    setNameError(false);
  };

  return (
    <div className="card form">
      <div className="form-intro">
        <h1 className="page-title">{t('register.title')}</h1>
        <Progress step={step} />
      </div>

      {step === 1 && (
        <form onSubmit={submitPhone} noValidate className="stack">
          <TextField
            label={t('register.phone')}
            hint={t('register.phoneHint')}
            error={phoneError}
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            maxLength={env.lao ? 15 : PHONE_LENGTH}
            value={phone}
            onChange={(e) => {
              setPhone(digitsOnly(e.target.value));
              setPhoneError('');
            }}
          />
          <SubmitButton busy={sendOtp.isPending} disabled={!phone}>
            {t('common.next')}
          </SubmitButton>
        </form>
      )}

      {step === 2 && (
        <form onSubmit={submitOtp} noValidate className="stack">
          <p className="notice">
            {t('register.otpSent', { phone })}
            <br />
            <strong>{t('register.otpRef', { ref: otp.ref })}</strong>
          </p>
          <TextField
            label={t('register.otpCode')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={otpCode}
            onChange={(e) => setOtpCode(digitsOnly(e.target.value))}
          />
          <SubmitButton busy={verifyOtp.isPending} disabled={!otpCode}>
            {t('register.verify')}
          </SubmitButton>
          <div className="row-between">
            <button type="button" className="btn btn-ghost" onClick={() => setStep(1)}>
              <Icon name="chevronLeft" size={18} />
              {t('register.changePhone')}
            </button>
            <button
              type="button"
              className="btn btn-ghost"
              disabled={sendOtp.isPending || resendIn > 0}
              onClick={() => void requestOtp().catch(fail)}
            >
              {resendIn > 0 ? t('register.resendIn', { seconds: resendIn }) : t('register.resend')}
            </button>
          </div>
        </form>
      )}

      {step === 3 && (
        <form onSubmit={submitProfile} noValidate className="stack">
          <TextField
            label={t('register.name')}
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
          />
          <TextField label={t('register.phone')} type="tel" value={phone} readOnly />
          <TextField
            label={t('register.password')}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              setMismatch(false);
            }}
            required
          />
          <TextField
            label={t('register.confirmPassword')}
            type="password"
            autoComplete="new-password"
            value={confirm}
            error={mismatch ? t('register.passwordMismatch') : undefined}
            onChange={(e) => {
              setConfirm(e.target.value);
              setMismatch(false);
            }}
            required
          />
          <SelectField
            label={t('register.source')}
            value={sourceCode}
            onChange={(e) => setSourceCode(e.target.value)}
          >
            <option value="">{t('register.sourceNone')}</option>
            {sources.data?.map((source) => (
              <option key={source.code} value={source.code}>
                {source.description}
              </option>
            ))}
          </SelectField>
          <TextField
            label={t('register.inviteCode')}
            hint={invite.locked ? t('register.inviteCodeLocked') : undefined}
            value={inviteCode}
            readOnly={invite.locked}
            onChange={(e) => setInviteCode(e.target.value)}
          />
          <SubmitButton busy={validate.isPending} disabled={!profileReady}>
            {t('common.next')}
          </SubmitButton>
        </form>
      )}

      {step === 4 && (
        <form onSubmit={submitBank} noValidate className="stack">
          {!env.lao && (
            <p className="notice notice-info">
              <Icon name="info" size={18} />
              {t('register.fastestHint')}
            </p>
          )}
          <SelectField
            label={t('register.bank')}
            value={bankCode}
            onChange={(e) => {
              setBankCode(e.target.value);
              setNameError(false);
            }}
            required
          >
            <option value="">{t('register.bankNone')}</option>
            {listedBanks.map((bank) => (
              <option key={bank.code} value={bank.code}>
                {bankName(bank, i18n.language)}
              </option>
            ))}
          </SelectField>
          <TextField
            label={t('register.firstName')}
            autoComplete="given-name"
            autoCapitalize="characters"
            value={firstName}
            onChange={(e) => upper(setFirstName)(e.target.value)}
            required
          />
          <TextField
            label={t('register.lastName')}
            autoComplete="family-name"
            autoCapitalize="characters"
            value={lastName}
            error={nameError ? t('register.englishOnly') : undefined}
            onChange={(e) => upper(setLastName)(e.target.value)}
            required
          />
          <TextField
            label={t('register.accountNo')}
            inputMode="numeric"
            value={accountNo}
            onChange={(e) => setAccountNo(digitsOnly(e.target.value))}
            required
          />
          {env.lao && (
            <SelectField
              label={t('register.currency')}
              value={currency}
              onChange={(e) => {
                const next = e.target.value as Currency;
                setCurrency(next);
                // A bank the new currency does not list is no longer a choice.
                if (next === 'LAK' && banks.data?.find((b) => b.code === bankCode)?.country !== 'LA') {
                  setBankCode('');
                }
              }}
            >
              <option value="LAK">{t('register.currencies.LAK')}</option>
              <option value="BAHT">{t('register.currencies.BAHT')}</option>
            </SelectField>
          )}
          {accountName && <p className="muted small">{t('register.accountName', { name: accountName })}</p>}
          <SubmitButton busy={create.isPending} disabled={!bankReady || done}>
            {t('register.submit')}
          </SubmitButton>
        </form>
      )}

      <p className="form-alt">
        {t('register.haveAccount')} <Link to={paths.login}>{t('register.login')}</Link>
      </p>
    </div>
  );
}

function Progress({ step }: { step: Step }) {
  const { t } = useTranslation();
  return (
    <div className="steps">
      <p className="visually-hidden">{t('register.progress', { step, total: STEP_KEYS.length })}</p>
      <ol>
        {STEP_KEYS.map((key, index) => {
          const number = index + 1;
          const state = number < step ? 'done' : number === step ? 'current' : 'todo';
          return (
            <li key={key} className={`step step-${state}`} aria-current={state === 'current' ? 'step' : undefined}>
              <span className="step-dot" aria-hidden="true">
                {state === 'done' ? <Icon name="check" size={14} /> : number}
              </span>
              <span className="step-label">{t(`register.steps.${key}`)}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

function SubmitButton({ busy, disabled, children }: { busy: boolean; disabled: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="btn btn-primary btn-block" disabled={disabled || busy}>
      {busy ? <Spinner /> : children}
    </button>
  );
}
