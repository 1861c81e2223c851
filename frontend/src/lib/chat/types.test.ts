import { describe, expect, it } from 'vitest';
import { checkFile, mergeIncoming, prependHistory, sendableText, type ChatItem, type WireMessage } from './types';

function wire(id: string, text: string, clientId: string | null = null): WireMessage {
  return {
    _id: id,
    sender: 'customer',
    message: { message_type: 'text', payload: text },
    createdAt: `2026-01-01T00:00:0${id}Z`,
    userId: '1',
    guestId: null,
    username: null,
    name: 'M',
    clientId,
    conversationId: '1',
  };
}

describe('chat list', () => {
  it('confirms our pending copy instead of adding the echo', () => {
    const pending: ChatItem = {
      key: 'c1',
      clientId: 'c1',
      sender: 'customer',
      message: { message_type: 'text', payload: 'hi' },
      delivery: 'sending',
    };
    const merged = mergeIncoming([pending], wire('5', 'hi', 'c1'));
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ key: 'c1', id: '5', delivery: 'succeed' });
    expect(mergeIncoming(merged, wire('5', 'hi', 'c1'))).toHaveLength(1);
    expect(mergeIncoming(merged, wire('6', 'other'))).toHaveLength(2);
  });

  it('puts an older page (newest first) in front, oldest first', () => {
    const items = prependHistory([], [wire('3', 'c'), wire('2', 'b')]);
    const more = prependHistory(items, [wire('2', 'b'), wire('1', 'a')]);
    expect(more.map((item) => item.id)).toEqual(['1', '2', '3']);
  });
});

describe('chat rules', () => {
  it('sends only non-blank text of at most 2000 characters', () => {
    expect(sendableText('hi')).toBe(true);
    expect(sendableText('  \n ')).toBe(false);
    expect(sendableText('x'.repeat(2000))).toBe(true);
    expect(sendableText('x'.repeat(2001))).toBe(false);
  });

  it('checks attachments by extension and size', () => {
    const file = (name: string, size: number) => new File([new Uint8Array(size)], name);
    expect(checkFile(file('a.PNG', 10))).toEqual({ ok: true, kind: 'image' });
    expect(checkFile(file('clip.mov', 10))).toEqual({ ok: true, kind: 'video' });
    expect(checkFile(file('noextension', 10))).toEqual({ ok: false, reason: 'unsupported' });
    expect(checkFile(file('doc.pdf', 10))).toEqual({ ok: false, reason: 'unsupported' });
    expect(checkFile(file('big.jpg', 10 * 1024 * 1024 + 1))).toEqual({ ok: false, reason: 'tooLarge', maxMb: 10 });
    expect(checkFile(file('ok.mp4', 15 * 1024 * 1024))).toEqual({ ok: true, kind: 'video' });
    expect(checkFile(file('big.mp4', 20 * 1024 * 1024 + 1))).toEqual({ ok: false, reason: 'tooLarge', maxMb: 20 });
  });
});
