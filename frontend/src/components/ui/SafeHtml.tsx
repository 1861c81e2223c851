/**
 * Server-supplied HTML (conditions, contact text), sanitised with DOMPurify in the browser.
 * DOMPurify is loaded on first use so screens without server HTML do not pay for it.
 * Links and images pass the app's one URL check as well (lib/safe-url), like on the server:
 * links absolute http(s), tel: or mailto:, images http(s) or on this site.
 */
import { useEffect, useState } from 'react';
import { LINK, SITE_OR_WEB, safeUrl, type UrlPolicy } from '@/lib/safe-url';

function keepSafe(node: Element, attribute: string, policy: UrlPolicy): void {
  const value = node.getAttribute(attribute);
  if (value === null) return;
  const checked = safeUrl(value, policy);
  if (checked === null) node.removeAttribute(attribute);
  else node.setAttribute(attribute, checked);
}

let purifier: Promise<(html: string) => string> | null = null;

function loadPurifier(): Promise<(html: string) => string> {
  purifier ??= import('dompurify').then(({ default: DOMPurify }) => {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') keepSafe(node, 'href', LINK);
      if (node.tagName === 'IMG') keepSafe(node, 'src', SITE_OR_WEB);
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
