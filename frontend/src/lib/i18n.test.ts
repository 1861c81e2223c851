import { afterEach, describe, expect, it, vi } from 'vitest';
import { languageTag } from './locales';

async function load(saved: string | null, lao = false) {
  vi.resetModules();
  // The Lao variant's document carries the server's meta (lib/variant.ts).
  vi.stubGlobal('document', {
    querySelector: (selector: string) =>
      lao && selector === 'meta[name="pao-variant"]' ? { getAttribute: () => 'la' } : null,
  });
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => (key === 'locale' ? saved : null),
    setItem: () => undefined,
    removeItem: () => undefined,
  });
  return import('./i18n');
}

describe('initial language', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is th by default and la in the Lao variant', async () => {
    expect((await load(null)).initialLocale()).toBe('th');
    expect((await load(null, true)).initialLocale()).toBe('la');
  });

  it('is the saved choice when there is one', async () => {
    expect((await load('en')).initialLocale()).toBe('en');
    expect((await load('la')).initialLocale()).toBe('la');
    expect((await load('xx')).initialLocale()).toBe('th');
  });

  it('names Lao "lo" for the browser', () => {
    expect(languageTag('la')).toBe('lo');
    expect(languageTag('th')).toBe('th');
  });
});
