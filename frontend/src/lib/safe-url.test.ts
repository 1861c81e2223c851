import { describe, expect, it } from 'vitest';
import vectors from '../../../contract/url-vectors.json';
import { LINK, POLICIES, SITE_OR_WEB, WEB, cssUrl, safeUrl, sitePath } from './safe-url';

type Vector = { value: string; why: string } & Record<keyof typeof POLICIES, boolean>;

describe('safeUrl: the vectors the server is tested with (contract/url-vectors.json)', () => {
  it.each((vectors.vectors as Vector[]).map((v) => [JSON.stringify(v.value), v] as const))('%s', (_name, vector) => {
    const verdicts = Object.fromEntries(
      Object.entries(POLICIES).map(([name, policy]) => [name, safeUrl(vector.value, policy) !== null]),
    );
    const expected = Object.fromEntries(Object.keys(POLICIES).map((name) => [name, vector[name as keyof typeof POLICIES]]));
    expect(verdicts, vector.why).toEqual(expected);
  });
});

describe('safeUrl', () => {
  it('answers the value as the browser reads it', () => {
    expect(safeUrl('  https://ok.example/x\n', WEB)).toBe('https://ok.example/x');
    expect(safeUrl('\u0001/media/a\tb.png ', SITE_OR_WEB)).toBe('/media/ab.png');
    expect(safeUrl(null, LINK)).toBeNull();
    expect(safeUrl(undefined, SITE_OR_WEB)).toBeNull();
  });
});

describe('sitePath', () => {
  it('answers the path of a site URL for the router', () => {
    expect(sitePath('/user/a/../profile?x=1#y')).toBe('/user/profile?x=1#y');
    expect(sitePath('/\\evil.example')).toBeNull();
    expect(sitePath('https://ok.example/user')).toBeNull();
    // Still on the site, but the bare path would read as another host.
    expect(sitePath('/.//evil.example')).toBeNull();
  });
});

describe('cssUrl', () => {
  it('quotes an allowed image and refuses the rest', () => {
    expect(cssUrl('/games/pg-bg.svg')).toBe('url("/games/pg-bg.svg")');
    expect(cssUrl('/a")x;background:url("//evil.example')).toBe('url("/a\\")x;background:url(\\"//evil.example")');
    expect(cssUrl('/\\evil.example/bg.png')).toBeUndefined();
    expect(cssUrl('javascript:alert(1)')).toBeUndefined();
  });
});
