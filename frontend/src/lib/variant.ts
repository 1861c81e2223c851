/**
 * The operator's variant (Thai, or Lao), told by the server: one build serves every operator.
 * The backend writes `<meta name="pao-variant" content="la">` into index.html when it runs with
 * PAO_LAO_MODE (pao.site.variant), so the app and the document's inline preload script
 * (plugins/preload-first-screen.ts) know it before any request; no meta means Thai.
 */
export const VARIANT_META = 'pao-variant';

/** True in the Lao variant's document. */
export function isLaoDocument(doc: Pick<Document, 'querySelector'> | undefined): boolean {
  return doc?.querySelector(`meta[name="${VARIANT_META}"]`)?.getAttribute('content') === 'la';
}
