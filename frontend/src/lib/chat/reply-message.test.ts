import { describe, expect, it } from 'vitest';
import { buildReply, parseButton } from './reply-message';

describe('buildReply', () => {
  it('turns options into quick replies, one per non-blank line', () => {
    expect(buildReply('quick_replies', 'Which bank?', 'SCB\n\n  KBank \n')).toEqual({
      message_type: 'quick_replies',
      payload: { text: 'Which bank?', quick_replies: [{ title: 'SCB' }, { title: 'KBank' }] },
    });
  });

  it('keeps at most three buttons', () => {
    const message = buildReply('buttons', 'Pick', 'a\nb\nc\nd');
    expect(message.message_type === 'buttons' && message.payload.buttons.map((b) => b.title)).toEqual(['a', 'b', 'c']);
  });

  it('sends plain text when a kind has no options', () => {
    expect(buildReply('quick_replies', 'Hello', ' \n')).toEqual({ message_type: 'text', payload: 'Hello' });
  });
});

describe('parseButton', () => {
  it('reads the target after the bar', () => {
    expect(parseButton('Site | https://example.com')).toEqual({ type: 'web', title: 'Site', url: 'https://example.com' });
    expect(parseButton('Call | tel:021234567')).toEqual({ type: 'call', title: 'Call', payload: '021234567' });
    expect(parseButton('More | MORE_INFO')).toEqual({ type: 'postback', title: 'More', payload: 'MORE_INFO' });
    expect(parseButton('Yes')).toEqual({ type: 'reply', title: 'Yes' });
  });
});
