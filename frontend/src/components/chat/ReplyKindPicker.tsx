/**
 * The agent's reply builder beside the composer: the reply's type (text, quick replies,
 * buttons) and, for the last two, its options one per line. The composer's text becomes the
 * message through `useReplyBuilder().build`, which also resets the builder for the next reply.
 */
import { useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buildReply, type ReplyKind } from '@/lib/chat/reply-message';
import type { AgentMessage } from '@/lib/chat/types';

export function useReplyBuilder() {
  const [kind, setKind] = useState<ReplyKind>('text');
  const [options, setOptions] = useState('');
  const build = useCallback(
    (text: string): AgentMessage => {
      setKind('text');
      setOptions('');
      return buildReply(kind, text, options);
    },
    [kind, options],
  );
  return { kind, setKind, options, setOptions, build };
}

type Props = Omit<ReturnType<typeof useReplyBuilder>, 'build'>;

export function ReplyKindPicker({ kind, setKind, options, setOptions }: Props) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="agent-reply-kind">
      <label className="visually-hidden" htmlFor={`${id}-kind`}>
        {t('agent.replyKind')}
      </label>
      <select id={`${id}-kind`} value={kind} onChange={(event) => setKind(event.target.value as ReplyKind)}>
        <option value="text">{t('agent.kindText')}</option>
        <option value="quick_replies">{t('agent.kindQuick')}</option>
        <option value="buttons">{t('agent.kindButtons')}</option>
      </select>
      {kind !== 'text' && (
        <>
          <label className="visually-hidden" htmlFor={`${id}-options`}>
            {t('agent.options')}
          </label>
          <textarea
            id={`${id}-options`}
            className="chat-input"
            rows={2}
            value={options}
            placeholder={kind === 'buttons' ? t('agent.buttonsHint') : t('agent.quickHint')}
            onChange={(event) => setOptions(event.target.value)}
          />
        </>
      )}
    </div>
  );
}
