/** Contact page body: sanitised HTML text, LINE QR (server image or local default), link, version. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import defaultQr from '@/assets/line-default.svg';
import { SafeHtml } from '@/components/ui/SafeHtml';
import { DelayedSpinner } from '@/components/ui/Spinner';
import { env } from '@/lib/env';
import { contactQuery } from '../api/contact';

export function ContactInfo() {
  const { t, i18n } = useTranslation();
  const contact = useQuery(contactQuery(i18n.language));
  // A server QR that does not load falls back to the bundled image, never a broken one.
  const [qrFailed, setQrFailed] = useState(false);
  if (contact.isPending) return <DelayedSpinner />;
  const data = contact.data;
  return (
    <div className="stack-lg">
      {data && (
        <section className="card contact-card">
          {data.contactText && <SafeHtml html={data.contactText} className="prose" />}
          <img
            className="contact-qr"
            src={data.lineQR && !qrFailed ? data.lineQR : defaultQr}
            onError={() => setQrFailed(true)}
            alt={t('contact.qrAlt')}
            width={180}
            height={180}
          />
          {data.lineLink && (
            <a className="btn btn-line btn-block" href={data.lineLink} target="_blank" rel="noopener noreferrer">
              {t('contact.line', { name: data.lineName || data.lineLink })}
            </a>
          )}
        </section>
      )}
      <p className="version">{t('contact.version', { version: env.version })}</p>
    </div>
  );
}
