import { describe, expect, it } from 'vitest';
import { isLaoDocument } from './variant';

const doc = (content: string | null) => ({
  querySelector: (selector: string) =>
    content !== null && selector === 'meta[name="pao-variant"]' ? { getAttribute: () => content } : null,
});

describe('the variant told by the server', () => {
  it('is Lao only when the document says la', () => {
    expect(isLaoDocument(doc('la') as unknown as Document)).toBe(true);
    expect(isLaoDocument(doc('th') as unknown as Document)).toBe(false);
    expect(isLaoDocument(doc(null) as unknown as Document)).toBe(false);
    expect(isLaoDocument(undefined)).toBe(false);
  });
});
