import { describe, expect, it } from 'vitest';
import { SHOWN_MAX, describeChange, imageName, plainText, scalar } from './history-values';

describe('settings history values', () => {
  it('shows money in baht and rates in percent, as the editors do; the rest as it is', () => {
    expect(describeChange('money', 100, 1234.5)).toEqual([{ type: 'value', before: '100.00 ฿', after: '1,234.50 ฿' }]);
    expect(describeChange('percentBp', 500, 250)).toEqual([{ type: 'value', before: '5 %', after: '2.5 %' }]);
    expect(describeChange('int', 24, 48)).toEqual([{ type: 'value', before: '24', after: '48' }]);
    expect(describeChange('bool', false, true)).toEqual([{ type: 'value', before: 'false', after: 'true' }]);
    expect(describeChange('text', '', 'Pao')).toEqual([{ type: 'value', before: null, after: 'Pao' }]);
    expect(describeChange('choice', 'day', 'week', (choice) => `[${choice}]`)).toEqual([{ type: 'value', before: '[day]', after: '[week]' }]);
    expect(scalar('money', null)).toBeNull();
    // A Lao operator's settings are in kip, which has no decimals on screen.
    expect(scalar('money', 25000, undefined, 'LAK')).toBe('25,000 ₭');
    // Per currency (ADR 0020): each currency's amount, unset shown as such.
    expect(scalar('money', { THB: 100, LAK: null })).toBe('100.00 ฿ · LAK —');
    expect(scalar('money', { THB: 100, LAK: 50000 })).toBe('100.00 ฿ · 50,000 ₭');
  });

  it('shows a text in three languages as a plain line per language that changed', () => {
    const before = { th: '<p>โทร <b>02</b></p>', la: '<p>ໂທ</p>', en: '<p>Call us</p>' };
    const after = { th: '<p>โทร <b>02</b></p>', la: '<p>ໂທຫາ</p>', en: '<p>Call&nbsp;<b>e2e</b></p><script>x()</script>' };
    expect(describeChange('html', before, after)).toEqual([
      { type: 'lang', lang: 'la', before: 'ໂທ', after: 'ໂທຫາ', markup: false },
      { type: 'lang', lang: 'en', before: 'Call us', after: 'Call e2e', markup: false },
    ]);
    // Only the markup changed: the same words, marked as a formatting change.
    expect(describeChange('html', { en: 'Hi there' }, { en: 'Hi <b>there</b>' })).toEqual([{ type: 'lang', lang: 'en', before: 'Hi there', after: 'Hi there', markup: true }]);
  });

  it('cuts a long text around its first difference', () => {
    const long = 'word '.repeat(60);
    const [part] = describeChange('html', { en: `${long}old end` }, { en: `${long}new end` });
    expect(part).toMatchObject({ type: 'lang', lang: 'en' });
    const shown = part?.type === 'lang' ? [part.before, part.after] : [];
    for (const text of shown) {
      expect(text?.startsWith('…')).toBe(true);
      expect(Array.from(text ?? '').length).toBeLessThanOrEqual(SHOWN_MAX + 2);
    }
    expect(shown[0]).toContain('old end');
    expect(shown[1]).toContain('new end');
  });

  it('reads HTML as the words a reader sees', () => {
    expect(plainText('<h2>Rules</h2><ul><li>One &amp; two</li><li>&#3652;&#x0e1b;</li></ul><!-- note --><style>p{}</style>')).toBe('Rules One & two ไป');
    expect(plainText('a < b and <b>bold</b>')).toBe('a < b and bold');
  });

  it('names the list items that changed, with what changed in each', () => {
    const before = [{ th: 'ข้อ 1', en: 'Rule 1' }, { en: 'Rule 2' }];
    const after = [{ th: 'ข้อ 1', en: 'Rule 1' }, { en: 'Rule two' }, { en: 'Rule 3' }];
    expect(describeChange('textList', before, after)).toEqual([
      { type: 'item', n: 2, change: 'changed', parts: [{ type: 'lang', lang: 'en', before: 'Rule 2', after: 'Rule two', markup: false }] },
      { type: 'item', n: 3, change: 'added', parts: [{ type: 'lang', lang: 'en', before: null, after: 'Rule 3', markup: false }] },
    ]);
    expect(describeChange('htmlList', [{ en: '<p>Gone</p>' }], [])).toEqual([
      { type: 'item', n: 1, change: 'removed', parts: [{ type: 'lang', lang: 'en', before: 'Gone', after: null, markup: false }] },
    ]);
  });

  it('sums a banner up: its image, its title per language and where its HTML changed', () => {
    const banner = { image: '/api/images/a1.png', title: { th: 'ชวนเพื่อน', en: 'Invite' }, html: { th: '<p>ก</p>', en: '<p>A</p>' } };
    const edited = { image: '/api/images/b%202.png?v=2', title: { th: 'ชวนเพื่อน', en: 'Invite friends' }, html: { th: '<p>ข</p>', en: '<p>A</p>' } };
    expect(describeChange('banners', [banner], [edited])).toEqual([
      {
        type: 'item',
        n: 1,
        change: 'changed',
        parts: [
          { type: 'image', before: { name: 'a1.png', src: '/api/images/a1.png' }, after: { name: 'b 2.png', src: '/api/images/b%202.png?v=2' } },
          { type: 'lang', lang: 'en', before: 'Invite', after: 'Invite friends', markup: false },
          { type: 'html', langs: ['th'] },
        ],
      },
    ]);
    // An image address the players would not load gets no thumbnail, only its name.
    const [added] = describeChange('banners', [], [{ image: 'javascript:alert(1)//x.png', html: {}, title: {} }]);
    expect(added).toEqual({ type: 'item', n: 1, change: 'added', parts: [{ type: 'image', before: null, after: { name: 'x.png', src: null } }] });
  });

  it('judges a setting it has no kind for by its values, and files a one-language string by its letters', () => {
    expect(describeChange(undefined, 'ข้อความ', { th: 'ข้อความใหม่' })).toEqual([{ type: 'lang', lang: 'th', before: 'ข้อความ', after: 'ข้อความใหม่', markup: false }]);
    expect(describeChange(undefined, { a: 1 }, null)).toEqual([{ type: 'value', before: '{"a":1}', after: null }]);
    expect(imageName('https://cdn.example/x/y/banner.jpg#top')).toBe('banner.jpg');
  });
});
