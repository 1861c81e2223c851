/**
 * Server-supplied HTML (conditions, contact text), sanitised with DOMPurify in the browser.
 * DOMPurify is loaded on first use so screens without server HTML do not pay for it.
 */
import { useEffect, useState } from 'react';

let purifier: Promise<(html: string) => string> | null = null;

function loadPurifier(): Promise<(html: string) => string> {
  purifier ??= import('dompurify').then(({ default: DOMPurify }) => {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      // Links from the operator open outside the app, without handing it a window reference.
      if (node.tagName === 'A' && node.getAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
    return (html: string) => DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
  });
  return purifier;
}

export function SafeHtml({ html, className }: { html: string; className?: string }) {
  const [clean, setClean] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void loadPurifier().then((sanitize) => {
      if (live) setClean(sanitize(html));
    });
    return () => {
      live = false;
    };
  }, [html]);
  if (clean === null) return null;
  // Sanitised just above.
  return <div className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}
