/**
 * Staff notes on the member: the list (newest first) and, for staff who may write them
 * (members.note: not the read-only viewer), a form to add one (audited).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '@/api/schema.gen';
import { formatDateTime } from '@/lib/dates';
import { boApi } from '../../lib/api';
import { useBoErrorText } from '../../lib/errors';
import { may, type Me } from '../../lib/permissions';
import { memberKey } from './members-api';
import { PagedTable } from './PagedTable';

type Note = components['schemas']['MemberNoteOut'];

export function Notes({ memberId, me }: { memberId: number; me: Me | undefined }) {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const queryClient = useQueryClient();
  const [body, setBody] = useState('');
  const key = [...memberKey(memberId), 'notes'];
  const add = useMutation({
    mutationFn: () => boApi.post('/api/backoffice/members/{member_id}/notes', { body }, { params: { member_id: memberId } }),
    onSuccess: () => {
      setBody('');
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  const columns = useMemo<ColumnDef<Note, unknown>[]>(
    () => [
      { id: 'at', header: t('bo.members.col.at'), size: 160, cell: ({ row }) => <span className="bo-nowrap">{formatDateTime(row.original.createdAt)}</span> },
      { id: 'author', header: t('bo.members.col.author'), size: 120, cell: ({ row }) => <span title={row.original.author}>{row.original.authorName}</span> },
      { id: 'note', header: t('bo.members.col.note'), cell: ({ row }) => <span className="bo-member-note">{row.original.body}</span> },
    ],
    [t],
  );
  return (
    <>
      {may(me, 'members.note') && (
        <form className="bo-member-note-form" onSubmit={submit}>
          <label className="bo-filter">
            <span>{t('bo.members.noteLabel')}</span>
            <textarea className="bo-input" rows={2} maxLength={2000} value={body} onChange={(event) => setBody(event.target.value)} />
          </label>
          <button type="submit" className="bo-btn bo-btn-primary" disabled={add.isPending}>
            {t('bo.members.addNote')}
          </button>
          {add.isError && (
            <p className="bo-error" role="alert">
              {errorText(add.error)}
            </p>
          )}
        </form>
      )}
      <PagedTable queryKey={key} caption={t('bo.members.tab.notes')} columns={columns} rowId={(row) => String(row.id)} fetch={(page, limit, signal) => boApi.get('/api/backoffice/members/{member_id}/notes', { params: { member_id: memberId }, query: { page, limit }, signal })} />
    </>
  );
}
