/**
 * Bank-transfer tab (spec §2): the operator's account with copy buttons, then the slip upload
 * of the slips feature (passed in by the route). The rules (credited within 1 minute, upload
 * within the window, daily closed time, minimum) are shown here only when no slip upload is
 * given, since the slip upload shows the same rules itself.
 */
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/ui/CopyButton';
import { bankName, formatBankAccount } from '@/lib/bank';
import { formatMoney, type Currency } from '@/lib/money';
import { slipRulesQuery, type DepositBank } from '../api/deposit';

type Props = { bank: DepositBank; renderSlipUpload?: () => ReactNode };

export function BankTransferPanel({ bank, renderSlipUpload }: Props) {
  const { t, i18n } = useTranslation();
  const rules = useQuery({ ...slipRulesQuery(), enabled: !renderSlipUpload });
  const name = bankName(bank.bank, i18n.language);
  return (
    <div className="stack">
      <dl className="deposit-account card">
        <div>
          <dt>{t('deposit.bank')}</dt>
          <dd>{name}</dd>
        </div>
        <div>
          <dt>{t('deposit.accountName')}</dt>
          <dd className="row-between">
            <span>{bank.bankAccountName}</span>
            <CopyButton text={bank.bankAccountName} label={t('deposit.accountName')} />
          </dd>
        </div>
        <div>
          <dt>{t('deposit.accountNo')}</dt>
          <dd className="row-between">
            <span className="deposit-account-no">{formatBankAccount(bank.bankAccountNo)}</span>
            <CopyButton text={bank.bankAccountNo} label={t('deposit.accountNo')} />
          </dd>
        </div>
      </dl>
      {renderSlipUpload ? (
        renderSlipUpload()
      ) : (
        <ul className="deposit-rules muted">
          <li>{t('deposit.rules.credit')}</li>
          <li>{t('deposit.rules.within', { count: rules.data?.uploadWithinMinutes ?? 60 })}</li>
          <li>{t('deposit.rules.closed')}</li>
          {rules.data && (
            <li>
              {t('deposit.rules.minimum', {
                amount: formatMoney(rules.data.minimumDeposit, bank.currency as Currency),
              })}
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
