/** The full bank account number, fetched only when asked for (the server audits the read). */
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { boApi } from '../../lib/api';
import { useBoErrorText } from '../../lib/errors';

export function BankReveal({ memberId }: { memberId: number }) {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const reveal = useMutation({
    mutationFn: () => boApi.get('/api/backoffice/members/{member_id}/bank-account', { params: { member_id: memberId } }),
  });
  if (reveal.data)
    return (
      <p className="bo-member-secret">
        <span className="bo-muted">{t('bo.members.accountNo')}: </span>
        <code className="bo-code">{reveal.data.accountNo}</code>
      </p>
    );
  return (
    <div className="bo-stack">
      <button type="button" className="bo-btn bo-btn-sm" onClick={() => reveal.mutate()} disabled={reveal.isPending}>
        {t('bo.members.reveal')}
      </button>
      <span className="bo-muted bo-small">{t('bo.members.revealHint')}</span>
      {reveal.isError && (
        <p className="bo-error" role="alert">
          {errorText(reveal.error)}
        </p>
      )}
    </div>
  );
}
