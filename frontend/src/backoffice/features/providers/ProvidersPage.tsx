/**
 * Game providers: each one's state (ok, maintenance, down), the health tracker's window (calls,
 * failure rate, time-outs, last success, last error) and its maintenance. Everyone with
 * providers.read sees the table, refreshed every few seconds; providers.manage sets maintenance
 * with a reason and an optional planned end, or ends it (the functions `pao ops providers
 * maintenance on|off` calls, each change audited). Players see a change within a second.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '@/api/schema.gen';
import { TextField } from '@/components/ui/Field';
import { formatDateTime } from '@/lib/dates';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { boApi } from '../../lib/api';
import { useMe } from '../../lib/auth';
import { useBoErrorText } from '../../lib/errors';
import { may } from '../../lib/permissions';

type Provider = components['schemas']['ProviderOut'];
const PROVIDERS = ['bo', 'providers'];
const REFRESH_MS = 5_000;
const BADGE: Record<Provider['state'], string> = { ok: 'bo-badge-ok', maintenance: 'bo-badge-warn', down: 'bo-badge-off' };

function useProvidersChanged(): () => void {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: PROVIDERS });
    void queryClient.invalidateQueries({ queryKey: ['bo', 'audit'] });
  };
}

const when = (value: string | null | undefined) => (value ? formatDateTime(value) : '—');

export default function ProvidersPage() {
  const { t } = useTranslation();
  const { me } = useMe();
  const canManage = may(me, 'providers.manage');
  const errorText = useBoErrorText();
  const providers = useQuery({
    queryKey: PROVIDERS,
    queryFn: ({ signal }) => boApi.get('/api/backoffice/providers', { signal }),
    refetchInterval: REFRESH_MS,
  });
  const [setting, setSetting] = useState<Provider | null>(null);
  const [ending, setEnding] = useState<Provider | null>(null);

  const columns = useMemo<ColumnDef<Provider, unknown>[]>(
    () => [
      {
        id: 'game',
        header: t('bo.providers.game'),
        size: 150,
        cell: ({ row }) => (
          <>
            <span className="bo-strong">{row.original.name}</span> <span className="bo-muted">{row.original.code}</span>
          </>
        ),
      },
      {
        id: 'state',
        header: t('bo.providers.state'),
        size: 130,
        cell: ({ row }) => (
          <>
            <span className={`bo-badge ${BADGE[row.original.state]}`}>{t(`bo.providers.stateName.${row.original.state}`)}</span>
            {row.original.circuit === 'probing' && <span className="bo-muted"> {t('bo.providers.probing')}</span>}
          </>
        ),
      },
      {
        id: 'health',
        header: t('bo.providers.failures'),
        size: 150,
        cell: ({ row }) => {
          const p = row.original;
          return t('bo.providers.failureRate', { rate: Math.round(p.failureRate * 100), failures: p.failures, calls: p.calls });
        },
      },
      { id: 'timeouts', header: t('bo.providers.timeouts'), size: 90, cell: ({ row }) => row.original.timeouts },
      { id: 'lastSuccess', header: t('bo.providers.lastSuccess'), size: 160, cell: ({ row }) => <span className="bo-nowrap">{when(row.original.lastSuccessAt)}</span> },
      {
        id: 'lastError',
        header: t('bo.providers.lastError'),
        cell: ({ row }) => {
          const p = row.original;
          if (!p.lastError) return '—';
          const probe = p.state === 'down' && p.downUntil ? ` · ${t('bo.providers.probeAt', { time: when(p.downUntil) })}` : '';
          return `${p.lastError} (${when(p.lastFailureAt)})${probe}`;
        },
      },
      {
        id: 'maintenance',
        header: t('bo.providers.maintenance'),
        cell: ({ row }) => {
          const m = row.original.maintenance;
          if (!m) return '—';
          const until = m.until ? t('bo.providers.until', { time: when(m.until) }) : t('bo.providers.untilEnded');
          return `${m.reason} · ${until}`;
        },
      },
      ...(canManage
        ? [
            {
              id: 'actions',
              header: t('bo.table.actions'),
              size: 230,
              cell: ({ row }: { row: { original: Provider } }) => (
                <div className="bo-row-actions" role="group" aria-label={t('bo.providers.actionsOf', { name: row.original.name })}>
                  <button type="button" className="bo-btn bo-btn-sm" onClick={() => setSetting(row.original)}>
                    {t(row.original.maintenance ? 'bo.providers.change' : 'bo.providers.setMaintenance')}
                  </button>
                  {row.original.maintenance && (
                    <button type="button" className="bo-btn bo-btn-sm" onClick={() => setEnding(row.original)}>
                      {t('bo.providers.endMaintenance')}
                    </button>
                  )}
                </div>
              ),
            } satisfies ColumnDef<Provider, unknown>,
          ]
        : []),
    ],
    [t, canManage],
  );

  return (
    <section className="bo-page" aria-labelledby="bo-providers-title">
      <header className="bo-page-head">
        <h1 id="bo-providers-title">{t('bo.providers.title')}</h1>
      </header>
      {providers.data && <p className="bo-muted">{t('bo.providers.window', { count: providers.data.windowSeconds })}</p>}
      {providers.isError ? (
        <p className="bo-error" role="alert">
          {errorText(providers.error)}
        </p>
      ) : (
        <DataTable
          caption={t('bo.providers.title')}
          columns={columns}
          data={providers.data?.items ?? []}
          getRowId={(row) => row.code}
          rowClassName={(row) => (row.enabled ? undefined : 'bo-row-muted')}
          empty={t('bo.providers.empty')}
          busy={providers.isFetching && !providers.data}
        />
      )}
      {setting && <MaintenanceDialog provider={setting} onClose={() => setSetting(null)} />}
      {ending && <EndDialog provider={ending} onClose={() => setEnding(null)} />}
    </section>
  );
}

/** A `datetime-local` value (the browser's time zone) as an ISO instant, or null when empty. */
export function plannedEnd(local: string): string | null {
  if (!local) return null;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

function MaintenanceDialog({ provider, onClose }: { provider: Provider; onClose: () => void }) {
  const { t } = useTranslation();
  const formId = useId();
  const changed = useProvidersChanged();
  const [reason, setReason] = useState(provider.maintenance?.reason ?? '');
  const [until, setUntil] = useState('');
  const save = useMutation({
    mutationFn: () =>
      boApi.put('/api/backoffice/providers/{code}/maintenance', { reason, until: plannedEnd(until) }, { params: { code: provider.code } }),
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
    <ConfirmDialog open title={t('bo.providers.setTitle', { name: provider.name })} confirm={t('bo.providers.setMaintenance')} danger pending={save.isPending} error={save.error} formId={formId} onConfirm={() => save.mutate()} onClose={onClose}>
      <form id={formId} className="bo-form" onSubmit={submit} noValidate>
        <p>{t('bo.providers.setText', { name: provider.name })}</p>
        <TextField label={t('bo.providers.reason')} hint={t('bo.providers.reasonHint')} maxLength={200} required value={reason} onChange={(event) => setReason(event.target.value)} />
        <TextField label={t('bo.providers.plannedEnd')} hint={t('bo.providers.plannedEndHint')} type="datetime-local" value={until} onChange={(event) => setUntil(event.target.value)} />
      </form>
    </ConfirmDialog>
  );
}

function EndDialog({ provider, onClose }: { provider: Provider; onClose: () => void }) {
  const { t } = useTranslation();
  const changed = useProvidersChanged();
  const end = useMutation({
    mutationFn: () => boApi.delete('/api/backoffice/providers/{code}/maintenance', { params: { code: provider.code } }),
    onSuccess: () => {
      changed();
      onClose();
    },
  });
  return (
    <ConfirmDialog open title={t('bo.providers.endMaintenance')} confirm={t('bo.providers.endMaintenance')} pending={end.isPending} error={end.error} onConfirm={() => end.mutate()} onClose={onClose}>
      <p>{t('bo.providers.confirmEnd', { name: provider.name })}</p>
    </ConfirmDialog>
  );
}
