/**
 * The QR as the server renders it (SVG markup), sanitised with DOMPurify's SVG profile before it
 * is put in the page. DOMPurify loads with the deposit modal's chunk, never on /login.
 */
import DOMPurify from 'dompurify';
import { useMemo } from 'react';

export function QrImage({ svg, label }: { svg: string; label: string }) {
  const clean = useMemo(
    () => DOMPurify.sanitize(svg, { USE_PROFILES: { svg: true, svgFilters: false } }),
    [svg],
  );
  // Sanitised just above; the wrapper carries the accessible name.
  return <div className="qr-image" role="img" aria-label={label} dangerouslySetInnerHTML={{ __html: clean }} />;
}
