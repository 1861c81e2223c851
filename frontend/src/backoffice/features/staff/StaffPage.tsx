/**
 * Staff (owner only): who works in the back office, adding a member (whose enrolment is shown
 * once), and per member: change role, disable or enable, reset two-step, reset password, each
 * behind a confirmation. Nobody acts on their own row (the server refuses it too).
 */
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '@/api/schema.gen';
import { Icon } from '@/components/ui/Icon';
import { formatDateTime } from '@/lib/dates';
import { DataTable } from '../../components/DataTable';
import { useMe } from '../../lib/auth';
import { useBoErrorText } from '../../lib/errors';
import { boApi } from '../../lib/api';
import { AddStaffDialog } from './AddStaffDialog';
import { STAFF } from './staff-api';
import { StaffActionDialog, type StaffAction } from './StaffActionDialog';

type Staff = components['schemas']['StaffOut'];

export default function StaffPage() {
  const { t } = useTranslation();
  const { me } = useMe();
  const errorText = useBoErrorText();
  const staff = useQuery({ queryKey: STAFF, queryFn: ({ signal }) => boApi.get('/api/backoffice/staff', { signal }) });
  const [adding, setAdding] = useState(false);
  const [action, setAction] = useState<{ kind: StaffAction; staff: Staff } | null>(null);

  const columns = useMemo<ColumnDef<Staff, unknown>[]>(
    () => [
      {
        id: 'name',
        header: t('bo.staff.displayName'),
        cell: ({ row }) => (
          <span className="bo-stack">
            <span className="bo-strong">
              {row.original.displayName}
              {row.original.id === me?.id && <span className="bo-muted"> ({t('bo.staff.you')})</span>}
            </span>
            <span className="bo-muted bo-small">{row.original.login}</span>
          </span>
        ),
      },
      { id: 'role', header: t('bo.staff.role'), size: 120, cell: ({ row }) => t(`bo.role.${row.original.role}`) },
      {
        id: 'status',
        header: t('bo.staff.status'),
        size: 110,
        cell: ({ row }) =>
          row.original.disabled ? (
            <span className="bo-badge bo-badge-off">{t('bo.staff.disabled')}</span>
          ) : (
            <span className="bo-badge bo-badge-ok">{t('bo.staff.active')}</span>
          ),
      },
      {
        id: 'totp',
        header: t('bo.staff.twoFactor'),
        size: 110,
        cell: ({ row }) =>
          row.original.totpEnrolled ? (
            <span className="bo-badge bo-badge-ok">{t('bo.staff.enrolled')}</span>
          ) : (
            <span className="bo-badge bo-badge-warn">{t('bo.staff.pending')}</span>
          ),
      },
      {
        id: 'lastLogin',
        header: t('bo.staff.lastLogin'),
        size: 160,
        cell: ({ row }) => (row.original.lastLoginAt ? formatDateTime(row.original.lastLoginAt) : t('bo.staff.never')),
      },
      {
        id: 'actions',
        header: t('bo.table.actions'),
        size: 500,
        cell: ({ row }) => {
          const target = row.original;
          if (target.id === me?.id) return null;
          const open = (kind: StaffAction) => () => setAction({ kind, staff: target });
          return (
            <div className="bo-row-actions" role="group" aria-label={t('bo.staff.actionsOf', { name: target.displayName })}>
              <button type="button" className="bo-btn bo-btn-sm" onClick={open('rename')}>
                {t('bo.staff.rename')}
              </button>
              <button type="button" className="bo-btn bo-btn-sm" onClick={open('role')}>
                {t('bo.staff.changeRole')}
              </button>
              <button type="button" className="bo-btn bo-btn-sm" onClick={open(target.disabled ? 'enable' : 'disable')}>
                {t(target.disabled ? 'bo.staff.enable' : 'bo.staff.disable')}
              </button>
              <button type="button" className="bo-btn bo-btn-sm" onClick={open('reset2fa')}>
                {t('bo.staff.reset2fa')}
              </button>
              <button type="button" className="bo-btn bo-btn-sm" onClick={open('password')}>
                {t('bo.staff.resetPassword')}
              </button>
            </div>
          );
        },
      },
    ],
    [t, me?.id],
  );

  return (
    <section className="bo-page" aria-labelledby="bo-staff-title">
      <header className="bo-page-head">
        <h1 id="bo-staff-title">{t('bo.staff.title')}</h1>
        <button type="button" className="bo-btn bo-btn-primary" onClick={() => setAdding(true)}>
          <Icon name="user" size={16} />
          {t('bo.staff.add')}
        </button>
      </header>
      {staff.isError ? (
        <p className="bo-error" role="alert">
          {errorText(staff.error)}
        </p>
      ) : (
        <DataTable
          caption={t('bo.staff.title')}
          columns={columns}
          data={staff.data ?? []}
          getRowId={(row) => String(row.id)}
          rowClassName={(row) => (row.disabled ? 'bo-row-muted' : undefined)}
          empty="—"
          busy={staff.isFetching}
        />
      )}
      {adding && <AddStaffDialog onClose={() => setAdding(false)} />}
      {action && <StaffActionDialog kind={action.kind} staff={action.staff} onClose={() => setAction(null)} />}
    </section>
  );
}
