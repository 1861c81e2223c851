/**
 * An agent's reply as the message it becomes: plain text, quick replies (one option per line)
 * or buttons ("Title", "Title | https://…", "Title | tel:…", "Title | postback data"; up to
 * three). Shared by the agent inbox and the back office's conversation pane.
 */
import type { AgentMessage, Button } from './types';

export type ReplyKind = 'text' | 'quick_replies' | 'buttons';

/** "Title" → a reply button; "Title | https://…" → web; "Title | tel:…" → call. */
export function parseButton(line: string): Button {
  const [rawTitle, rawTarget] = line.split('|');
  const title = (rawTitle ?? '').trim();
  const target = (rawTarget ?? '').trim();
  if (/^https?:\/\//i.test(target)) return { type: 'web', title, url: target };
  if (target.toLowerCase().startsWith('tel:')) return { type: 'call', title, payload: target.slice(4) };
  if (target) return { type: 'postback', title, payload: target };
  return { type: 'reply', title };
}

/** The message for ``text`` with ``options`` (one per line); no options → plain text. */
export function buildReply(kind: ReplyKind, text: string, options: string): AgentMessage {
  const lines = options
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (kind === 'quick_replies' && lines.length) {
    return {
      message_type: 'quick_replies',
      payload: { text, quick_replies: lines.map((line) => ({ title: line })) },
    };
  }
  if (kind === 'buttons' && lines.length) {
    return { message_type: 'buttons', payload: { text, buttons: lines.slice(0, 3).map(parseButton) } };
  }
  return { message_type: 'text', payload: text };
}
