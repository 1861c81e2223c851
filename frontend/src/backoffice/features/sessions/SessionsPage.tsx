/** My sessions: where this staff member is signed in; any but the current one can be ended. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '@/api/schema.gen';
import { useToast } from '@/components/ui/Toast';
import { formatDateTime } from '@/lib/dates';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { boApi } from '../../lib/api';
import { useBoErrorText } from '../../lib/errors';

type Session = components['schemas']['SessionOut'];
const SESSIONS = ['bo', 'sessions'];

export default function SessionsPage() {
  const { t } = useTranslation();
  const toast = useToast();
  const errorText = useBoErrorText();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: SESSIONS, queryFn: ({ signal }) => boApi.get('/api/backoffice/sessions', { signal }) });
  const [ending, setEnding] = useState<Session | null>(null);
  const end = useMutation({
    mutationFn: (id: number) => boApi.delete('/api/backoffice/sessions/{session_id}', { params: { session_id: id } }),
    onSuccess: () => {
      setEnding(null);
      toast(t('bo.sessions.ended'), 'success');
      void queryClient.invalidateQueries({ queryKey: SESSIONS });
    },
  });

  const columns = useMemo<ColumnDef<Session, unknown>[]>(
    () => [
      {
        id: 'device',
        header: t('bo.sessions.device'),
        cell: ({ row }) => (
          <span className="bo-stack">
            <span className="bo-ellipsis" title={row.original.userAgent ?? undefined}>
              {row.original.userAgent ?? '—'}
            </span>
            {row.original.current && <span className="bo-badge bo-badge-ok">{t('bo.sessions.current')}</span>}
            {row.original.locked && <span className="bo-badge bo-badge-warn">{t('bo.sessions.locked')}</span>}
          </span>
        ),
      },
      { id: 'ip', header: t('bo.sessions.ip'), size: 130, cell: ({ row }) => row.original.ip ?? '—' },
      { id: 'started', header: t('bo.sessions.started'), size: 160, cell: ({ row }) => <span className="bo-nowrap">{formatDateTime(row.original.createdAt)}</span> },
      { id: 'seen', header: t('bo.sessions.lastSeen'), size: 160, cell: ({ row }) => <span className="bo-nowrap">{formatDateTime(row.original.lastSeenAt)}</span> },
      { id: 'expires', header: t('bo.sessions.expires'), size: 160, cell: ({ row }) => <span className="bo-nowrap">{formatDateTime(row.original.expiresAt)}</span> },
      {
        id: 'actions',
        header: () => <span className="visually-hidden">{t('bo.table.actions')}</span>,
        size: 130,
        cell: ({ row }) =>
          row.original.current ? null : (
            <button type="button" className="bo-btn bo-btn-sm" onClick={() => setEnding(row.original)}>
              {t('bo.sessions.end')}
            </button>
          ),
      },
    ],
    [t],
  );

  return (
    <section className="bo-page" aria-labelledby="bo-sessions-title">
      <header className="bo-page-head">
        <h1 id="bo-sessions-title">{t('bo.sessions.title')}</h1>
        <p className="bo-muted">{t('bo.sessions.hint')}</p>
      </header>
      {sessions.isError ? (
        <p className="bo-error" role="alert">
          {errorText(sessions.error)}
        </p>
      ) : (
        <DataTable
          caption={t('bo.sessions.title')}
          columns={columns}
          data={sessions.data ?? []}
          getRowId={(session) => String(session.id)}
          rowClassName={(session) => (session.current ? 'bo-row-current' : undefined)}
          empty="—"
          busy={sessions.isFetching}
        />
      )}
      <ConfirmDialog
        open={ending !== null}
        title={t('bo.sessions.endTitle')}
        confirm={t('bo.sessions.end')}
        danger
        pending={end.isPending}
        error={end.error}
        onConfirm={() => ending && end.mutate(ending.id)}
        onClose={() => {
          setEnding(null);
          end.reset();
        }}
      >
        <p>{t('bo.sessions.endConfirm', { time: ending ? formatDateTime(ending.createdAt) : '' })}</p>
      </ConfirmDialog>
    </section>
  );
}
