/** Read-only profile: account and bank details, password change and bank-name edit entry points. */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CopyButton } from '@/components/ui/CopyButton';
import { Icon } from '@/components/ui/Icon';
import { DelayedSpinner } from '@/components/ui/Spinner';
import { bankName, formatBankAccount, isEnglishName, needsEnglishName } from '@/lib/bank';
import { formatDateTime } from '@/lib/dates';
import { paths } from '@/lib/paths';
import { useProfile } from '../api/profile';
import { BankNameModal } from './BankNameModal';
import { ChangePasswordModal } from './ChangePasswordModal';
import { LineLinkCard } from './LineLinkCard';

export function ProfileView() {
  const { t, i18n } = useTranslation();
  const profile = useProfile();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [bankOpen, setBankOpen] = useState(false);

  if (profile.isPending) return <DelayedSpinner />;
  if (!profile.data) return null;
  const { profile: member, bankAccount } = profile.data;
  const canEditName =
    needsEnglishName(bankAccount.bankCode) && !isEnglishName(bankAccount.bankAccountName);

  return (
    <div className="stack-lg">
      <div className="page-head">
        <h1 className="page-title">{t('profile.title')}</h1>
        <button type="button" className="btn btn-secondary" onClick={() => setPasswordOpen(true)}>
          <Icon name="lock" size={18} />
          {t('profile.changePassword')}
        </button>
      </div>

      <section className="card" aria-labelledby="profile-account">
        <h2 id="profile-account" className="section-title">
          {t('profile.account')}
        </h2>
        <dl className="details">
          <Row label={t('profile.name')}>{member.name}</Row>
          <Row label={t('profile.id')} action={<CopyButton text={member._id} label={t('profile.id')} />}>
            <span className="mono">{member._id}</span>
          </Row>
          <Row label={t('profile.createdAt')}>{formatDateTime(member.createdAt)}</Row>
          <Row label={t('profile.username')}>{member.username}</Row>
        </dl>
      </section>

      <section className="card" aria-labelledby="profile-bank">
        <h2 id="profile-bank" className="section-title">
          {t('profile.bankSection')}
        </h2>
        <dl className="details">
          <Row
            label={t('profile.bankAccountName')}
            action={
              canEditName ? (
                <button
                  type="button"
                  className="icon-btn icon-btn-sm"
                  onClick={() => setBankOpen(true)}
                  aria-label={t('profile.editBankName')}
                >
                  <Icon name="edit" size={18} />
                </button>
              ) : undefined
            }
          >
            {bankAccount.bankAccountName}
          </Row>
          <Row label={t('profile.bankName')}>{bankName(bankAccount.bank, i18n.language)}</Row>
          <Row
            label={t('profile.bankAccountNo')}
            action={
              <CopyButton text={bankAccount.bankAccountNo} label={t('profile.bankAccountNo')} />
            }
          >
            <span className="mono">{formatBankAccount(bankAccount.bankAccountNo)}</span>
          </Row>
        </dl>
      </section>

      <LineLinkCard />

      <section className="card" aria-labelledby="profile-protection">
        <h2 id="profile-protection" className="section-title">
          {t('protection.title')}
        </h2>
        <p className="muted small">{t('protection.profileText')}</p>
        {/* A control of its own, big enough to touch (e2e/finish.spec.ts), not a heading link. */}
        <Link className="btn btn-secondary" to={paths.user.protection}>
          {t('protection.open')}
        </Link>
      </section>

      <ChangePasswordModal open={passwordOpen} onClose={() => setPasswordOpen(false)} />
      <BankNameModal open={bankOpen} onClose={() => setBankOpen(false)} bankCode={bankAccount.bankCode} />
    </div>
  );
}

function Row({ label, children, action }: { label: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div className="details-row">
      <dt>{label}</dt>
      <dd>
        <span className="details-value">{children}</span>
        {action}
      </dd>
    </div>
  );
}
