/** Contact page body: sanitised HTML text, LINE QR (server image or local default), link, version. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import defaultQr from '@/assets/line-default.svg';
import { SafeHtml } from '@/components/ui/SafeHtml';
import { DelayedSpinner } from '@/components/ui/Spinner';
import { env } from '@/lib/env';
import { SITE_OR_WEB, safeUrl } from '@/lib/safe-url';
import { contactQuery } from '../api/contact';

export function ContactInfo() {
  const { t, i18n } = useTranslation();
  const contact = useQuery(contactQuery(i18n.language));
  // A server QR that does not load falls back to the bundled image, never a broken one.
  const [qrFailed, setQrFailed] = useState(false);
  if (contact.isPending) return <DelayedSpinner />;
  const data = contact.data;
  const qr = safeUrl(data?.lineQR, SITE_OR_WEB);
  const lineLink = safeUrl(data?.lineLink, SITE_OR_WEB);
  return (
    <div className="stack-lg">
      {data && (
        <section className="card contact-card">
          {data.contactText && <SafeHtml html={data.contactText} className="prose" />}
          <img
            className="contact-qr"
            src={qr && !qrFailed ? qr : defaultQr}
            onError={() => setQrFailed(true)}
            alt={t('contact.qrAlt')}
            width={180}
            height={180}
          />
          {lineLink && (
            <a className="btn btn-line btn-block" href={lineLink} target="_blank" rel="noopener noreferrer">
              {t('contact.line', { name: data.lineName || data.lineLink })}
            </a>
          )}
        </section>
      )}
      <p className="version">{t('contact.version', { version: env.version })}</p>
    </div>
  );
}
