/**
 * The back office names its amounts in the operator's currency, told by its document
 * (lib/variant.ts): a Lao operator's bonus editor labels its amount fields in kip, a Thai
 * operator's in baht, as before.
 */
import { readFileSync } from 'node:fs';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createInstance } from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '@/lib/locales';

const strings = (locale: Locale, part: string): unknown =>
  JSON.parse(readFileSync(new URL(`../locales/${locale}/${part}.json`, import.meta.url), 'utf8'));

/** The bonus editor (a new bonus) as staff of a Lao or Thai operator see it, in `locale`. */
async function bonusEditor(locale: Locale, lao: boolean): Promise<string> {
  vi.resetModules();
  // The variant is read from the document when lib/env.ts loads.
  vi.stubGlobal('document', {
    querySelector: (selector: string) =>
      lao && selector === 'meta[name="pao-variant"]' ? { getAttribute: () => 'la' } : null,
  });
  const { BonusDialog } = await import('./features/promotions/BonusDialog');
  const i18n = createInstance();
  await i18n.init({
    lng: locale,
    resources: {
      [locale]: { translation: strings(locale, 'translation'), backoffice: strings(locale, 'backoffice'), member: strings(locale, 'member') } as never,
    },
    defaultNS: 'translation',
    fallbackNS: ['backoffice', 'member'],
    interpolation: { escapeValue: false },
  });
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <BonusDialog bonus={null} kind="bonus" onClose={() => undefined} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

describe("the back office's amount fields", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("are in kip for a Lao operator's staff, whatever their language", async () => {
    const lao = await bonusEditor('la', true);
    // A new bonus gives a percentage: its maximum and the minimum deposit are the amounts shown.
    for (const label of ['ສູງສຸດ (ກີບ)', 'ຍອດຝາກຂັ້ນຕ່ຳ (ກີບ)']) expect(lao).toContain(label);
    expect(lao).not.toContain('ບາດ');
    const english = await bonusEditor('en', true);
    expect(english).toContain('Maximum (kip)');
    expect(english).not.toContain('baht');
  });

  it("are in baht for a Thai operator's, as before", async () => {
    const thai = await bonusEditor('th', false);
    for (const label of ['สูงสุด (บาท)', 'ยอดฝากขั้นต่ำ (บาท)']) expect(thai).toContain(label);
    expect(thai).not.toContain('กีบ');
  });
});
