/**
 * Receiving accounts: the bank, gateway and TrueMoney accounts members deposit to. Everyone with
 * accounts.read sees the table; accounts.manage adds, edits, enables and disables (the same
 * functions as `pao ops accounts`, each change audited).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '@/api/schema.gen';
import { SelectField, TextField } from '@/components/ui/Field';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { boApi } from '../../lib/api';
import { useMe } from '../../lib/auth';
import { useBoErrorText } from '../../lib/errors';
import { may } from '../../lib/permissions';

type Account = components['schemas']['AccountOut'];
type Kind = Account['kind'];
type Mode = Account['mode'];
const ACCOUNTS = ['bo', 'accounts'];
const KINDS: readonly Kind[] = ['BANK', 'GATEWAY', 'TRUEMONEY'];
const MODES: readonly Mode[] = ['MANUAL', 'AUTO', 'GIFT_LINK'];

function useAccountsChanged(): () => void {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ACCOUNTS });
    void queryClient.invalidateQueries({ queryKey: ['bo', 'audit'] });
  };
}

export default function AccountsPage() {
  const { t } = useTranslation();
  const { me } = useMe();
  const canManage = may(me, 'accounts.manage');
  const errorText = useBoErrorText();
  const accounts = useQuery({ queryKey: ACCOUNTS, queryFn: ({ signal }) => boApi.get('/api/backoffice/accounts', { signal }) });
  const [editing, setEditing] = useState<Account | 'new' | null>(null);
  const [toggling, setToggling] = useState<Account | null>(null);

  const columns = useMemo<ColumnDef<Account, unknown>[]>(
    () => [
      { id: 'kind', header: t('bo.accounts.kind'), size: 110, cell: ({ row }) => t(`bo.accounts.kindName.${row.original.kind}`) },
      { id: 'code', header: t('bo.accounts.code'), size: 110, cell: ({ row }) => <span className="bo-strong">{row.original.code}</span> },
      { id: 'mode', header: t('bo.accounts.mode'), size: 100, cell: ({ row }) => row.original.mode },
      { id: 'name', header: t('bo.accounts.accountName'), cell: ({ row }) => row.original.accountName || '—' },
      { id: 'no', header: t('bo.accounts.accountNo'), cell: ({ row }) => row.original.accountNo || '—' },
      { id: 'promptpay', header: t('bo.accounts.promptpayId'), cell: ({ row }) => row.original.promptpayId ?? row.original.laoReceiverId ?? '—' },
      {
        id: 'status',
        header: t('bo.accounts.status'),
        size: 100,
        cell: ({ row }) =>
          row.original.active ? <span className="bo-badge bo-badge-ok">{t('bo.accounts.active')}</span> : <span className="bo-badge bo-badge-off">{t('bo.accounts.disabled')}</span>,
      },
      ...(canManage
        ? [
            {
              id: 'actions',
              header: t('bo.table.actions'),
              size: 220,
              cell: ({ row }: { row: { original: Account } }) => (
                <div className="bo-row-actions" role="group" aria-label={t('bo.accounts.actionsOf', { code: row.original.code, id: row.original.id })}>
                  <button type="button" className="bo-btn bo-btn-sm" onClick={() => setEditing(row.original)}>
                    {t('bo.accounts.edit')}
                  </button>
                  <button type="button" className="bo-btn bo-btn-sm" onClick={() => setToggling(row.original)}>
                    {t(row.original.active ? 'bo.accounts.disable' : 'bo.accounts.enable')}
                  </button>
                </div>
              ),
            } satisfies ColumnDef<Account, unknown>,
          ]
        : []),
    ],
    [t, canManage],
  );

  return (
    <section className="bo-page" aria-labelledby="bo-accounts-title">
      <header className="bo-page-head">
        <h1 id="bo-accounts-title">{t('bo.accounts.title')}</h1>
        {canManage && (
          <button type="button" className="bo-btn bo-btn-primary" onClick={() => setEditing('new')}>
            {t('bo.accounts.add')}
          </button>
        )}
      </header>
      {accounts.isError ? (
        <p className="bo-error" role="alert">
          {errorText(accounts.error)}
        </p>
      ) : (
        <DataTable
          caption={t('bo.accounts.title')}
          columns={columns}
          data={accounts.data?.items ?? []}
          getRowId={(row) => String(row.id)}
          rowClassName={(row) => (row.active ? undefined : 'bo-row-muted')}
          empty={t('bo.accounts.empty')}
          busy={accounts.isFetching}
        />
      )}
      {editing && <AccountDialog account={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {toggling && <ToggleDialog account={toggling} onClose={() => setToggling(null)} />}
    </section>
  );
}

function ToggleDialog({ account, onClose }: { account: Account; onClose: () => void }) {
  const { t } = useTranslation();
  const changed = useAccountsChanged();
  const toggle = useMutation({
    mutationFn: () => boApi.patch('/api/backoffice/accounts/{account_id}', { active: !account.active }, { params: { account_id: account.id } }),
    onSuccess: () => {
      changed();
      onClose();
    },
  });
  const verb = account.active ? 'bo.accounts.disable' : 'bo.accounts.enable';
  return (
    <ConfirmDialog open title={t(verb)} confirm={t(verb)} danger={account.active} pending={toggle.isPending} error={toggle.error} onConfirm={() => toggle.mutate()} onClose={onClose}>
      <p>{t(account.active ? 'bo.accounts.confirmDisable' : 'bo.accounts.confirmEnable', { code: account.code, no: account.accountNo })}</p>
    </ConfirmDialog>
  );
}

function AccountDialog({ account, onClose }: { account: Account | null; onClose: () => void }) {
  const { t } = useTranslation();
  const formId = useId();
  const changed = useAccountsChanged();
  const [kind, setKind] = useState<Kind>(account?.kind ?? 'BANK');
  const [code, setCode] = useState(account?.code ?? '');
  const [mode, setMode] = useState<Mode>(account?.mode ?? 'MANUAL');
  const [accountName, setAccountName] = useState(account?.accountName ?? '');
  const [accountNo, setAccountNo] = useState(account?.accountNo ?? '');
  const [promptpayId, setPromptpayId] = useState(account?.promptpayId ?? '');
  const [currency, setCurrency] = useState(account?.currency ?? 'THB');
  const save = useMutation({
    mutationFn: async () => {
      const fields = { code, mode, accountName, accountNo, promptpayId: promptpayId || null, currency: currency as 'THB' | 'LAK' };
      if (account) await boApi.patch('/api/backoffice/accounts/{account_id}', fields, { params: { account_id: account.id } });
      else await boApi.post('/api/backoffice/accounts', { kind, ...fields });
    },
    onSuccess: () => {
      changed();
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <ConfirmDialog open title={t(account ? 'bo.accounts.editTitle' : 'bo.accounts.addTitle')} confirm={t('common.save')} pending={save.isPending} error={save.error} formId={formId} onConfirm={() => save.mutate()} onClose={onClose}>
      <form id={formId} className="bo-form" onSubmit={submit} noValidate>
        <SelectField label={t('bo.accounts.kind')} value={kind} disabled={account !== null} onChange={(event) => setKind(event.target.value as Kind)}>
          {KINDS.map((value) => (
            <option key={value} value={value}>
              {t(`bo.accounts.kindName.${value}`)}
            </option>
          ))}
        </SelectField>
        <TextField label={t('bo.accounts.code')} hint={t('bo.accounts.codeHint')} maxLength={20} value={code} onChange={(event) => setCode(event.target.value)} />
        <SelectField label={t('bo.accounts.mode')} value={mode} onChange={(event) => setMode(event.target.value as Mode)}>
          {MODES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </SelectField>
        <TextField label={t('bo.accounts.accountName')} maxLength={100} value={accountName} onChange={(event) => setAccountName(event.target.value)} />
        <TextField label={t('bo.accounts.accountNo')} maxLength={30} inputMode="numeric" value={accountNo} onChange={(event) => setAccountNo(event.target.value)} />
        <TextField label={t('bo.accounts.promptpayId')} maxLength={20} inputMode="numeric" value={promptpayId} onChange={(event) => setPromptpayId(event.target.value)} />
        <SelectField label={t('bo.accounts.currency')} value={currency} onChange={(event) => setCurrency(event.target.value)}>
          <option value="THB">THB</option>
          <option value="LAK">LAK</option>
        </SelectField>
      </form>
    </ConfirmDialog>
  );
}
