/**
 * Who works the conversation: its assignee, "assign to me" (or "take over" from another agent),
 * "assign to" any staff member who may use the chat, and "unassign". The server decides: a
 * conversation someone else took in the meantime answers CHAT_ALREADY_ASSIGNED, shown here.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBoErrorText } from '../../lib/errors';
import {
  assignConversation,
  fetchAgents,
  inboxKeys,
  unassignConversation,
  type InboxConversation,
} from './inbox-api';

export function AssignControls({ conversation, me }: { conversation: InboxConversation; me: number }) {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const queryClient = useQueryClient();
  const pickId = useId();
  const agents = useQuery({ queryKey: inboxKeys.agents, queryFn: ({ signal }) => fetchAgents(signal), staleTime: 60_000 });
  const [target, setTarget] = useState('');
  const change = useMutation({
    mutationFn: (action: { staffId: number; replace: boolean } | null) =>
      action ? assignConversation(conversation.id, action.staffId, action.replace) : unassignConversation(conversation.id),
    onSuccess: (updated) => {
      queryClient.setQueryData(inboxKeys.one(updated.id), updated);
      setTarget('');
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: inboxKeys.all }),
  });
  const holder = conversation.assignedStaffId;
  const mine = holder === me;
  return (
    <div className="bo-chat-assign" aria-label={t('bo.chat.assignment')} role="group">
      <p className="bo-chat-assignee">
        {holder === null
          ? t('bo.chat.unassigned')
          : mine
            ? t('bo.chat.assignedToYou')
            : t('bo.chat.assignedTo', { name: conversation.assignedName ?? `#${holder}` })}
      </p>
      {!mine && (
        <button
          type="button"
          className="bo-btn bo-btn-primary"
          disabled={change.isPending}
          onClick={() => change.mutate({ staffId: me, replace: holder !== null })}
        >
          {holder === null ? t('bo.chat.assignToMe') : t('bo.chat.takeOver')}
        </button>
      )}
      <label className="visually-hidden" htmlFor={pickId}>
        {t('bo.chat.assignTo')}
      </label>
      <select id={pickId} className="bo-input" value={target} onChange={(event) => setTarget(event.target.value)}>
        <option value="">{t('bo.chat.assignTo')}</option>
        {(agents.data ?? [])
          .filter((agent) => agent.id !== holder)
          .map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.displayName}
            </option>
          ))}
      </select>
      <button
        type="button"
        className="bo-btn"
        disabled={!target || change.isPending}
        onClick={() => change.mutate({ staffId: Number(target), replace: true })}
      >
        {t('bo.chat.assign')}
      </button>
      {holder !== null && (
        <button type="button" className="bo-btn" disabled={change.isPending} onClick={() => change.mutate(null)}>
          {t('bo.chat.unassign')}
        </button>
      )}
      {change.isError && (
        <p className="bo-error" role="alert">
          {errorText(change.error)}
        </p>
      )}
    </div>
  );
}
