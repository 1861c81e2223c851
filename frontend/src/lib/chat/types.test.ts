import { describe, expect, it } from 'vitest';
import {
  HISTORY_PAGE,
  checkFile,
  fetchMissed,
  mergeIncoming,
  prependHistory,
  sendableText,
  type ChatItem,
  type WireMessage,
} from './types';

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

  it('puts a message missed while offline before a later one that came live', () => {
    const items = prependHistory([], [wire('2', 'b'), wire('1', 'a')]);
    const live = mergeIncoming(items, wire('4', 'd'));
    expect(mergeIncoming(live, wire('3', 'c')).map((item) => item.id)).toEqual(['1', '2', '3', '4']);
    // Ids compare as numbers, not as text.
    const tenth = mergeIncoming(live, { ...wire('3', 'c'), _id: '10' });
    expect(tenth.map((item) => item.id)).toEqual(['1', '2', '4', '10']);
  });

  it("follows a LINE message's delivery as the server reports it (sending, failed, succeed)", () => {
    const sent = { ...wire('7', 'to LINE'), sender: 'agent' as const, delivery: 'sending' as const };
    const items = mergeIncoming([], sent);
    expect(items[0]?.delivery).toBe('sending');
    const failed = mergeIncoming(items, { ...sent, delivery: 'failed' });
    expect(failed).toHaveLength(1);
    expect(failed[0]?.delivery).toBe('failed');
    expect(mergeIncoming(failed, { ...sent, delivery: 'succeed' })[0]?.delivery).toBe('succeed');
    // Web chat carries none: stored is delivered.
    expect(prependHistory([], [wire('8', 'web')])[0]?.delivery).toBe('succeed');
  });

  it('puts an older page (newest first) in front, oldest first', () => {
    const items = prependHistory([], [wire('3', 'c'), wire('2', 'b')]);
    const more = prependHistory(items, [wire('2', 'b'), wire('1', 'a')]);
    expect(more.map((item) => item.id)).toEqual(['1', '2', '3']);
  });
});

describe('missed messages', () => {
  // A conversation of `total` stored messages with ids 1…total, history as the server pages it.
  function server(total: number) {
    const calls: number[] = [];
    const history = (skip: number, limit: number) => {
      calls.push(skip);
      const ids = Array.from({ length: total }, (_, i) => total - i).slice(skip, skip + limit);
      return Promise.resolve(ids.map((id) => ({ ...wire('1', `m${id}`), _id: String(id) })));
    };
    return { history, calls };
  }
  const shown = (...ids: string[]) => ids.map(stored);
  function stored(id: string): ChatItem {
    return { key: id, id, sender: 'customer', message: { message_type: 'text', payload: id }, delivery: 'succeed' };
  }

  it('are the messages after the newest one on screen, oldest first, over several pages', async () => {
    const { history, calls } = server(2 + 2 * HISTORY_PAGE + 3);
    const missed = await fetchMissed(shown('1', '2'), history);
    expect(missed.map((m) => m._id)).toEqual(Array.from({ length: 2 * HISTORY_PAGE + 3 }, (_, i) => String(i + 3)));
    expect(calls).toEqual([0, HISTORY_PAGE, 2 * HISTORY_PAGE]);
  });

  it('are none when the newest is on screen, and the newest page when nothing is', async () => {
    const { history, calls } = server(30);
    expect(await fetchMissed(shown('29', '30'), history)).toEqual([]);
    expect((await fetchMissed([], history)).map((m) => m._id)).toEqual(Array.from({ length: HISTORY_PAGE }, (_, i) => String(21 + i)));
    expect(calls).toEqual([0, 0]);
  });

  it('merged, confirm our own copy and add the answer the socket never delivered', async () => {
    // Our message went out before the socket joined: the HTTP answer confirmed it (id 5), the
    // bot's answer (id 6) was sent to a room nobody was in.
    const ours: ChatItem = { ...stored('5'), key: 'c1', clientId: 'c1' };
    const { history } = server(6);
    const missed = await fetchMissed([ours], history);
    const merged = missed.reduce(mergeIncoming, [ours]);
    expect(merged.map((item) => [item.key, item.id])).toEqual([
      ['c1', '5'],
      ['6', '6'],
    ]);
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
