import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../lib/i18n';
import { mailtoHref, siteContact, telHref, useSiteConfig } from '../lib/site';

interface Linked {
  href?: string;
  text: string;
}

/**
 * The site operator's telephone, address and e-mail from the site configuration (§1), in the UI
 * language; telephone and e-mail with their links. `null` when none is configured.
 */
export function useSiteContact(): { tel?: Linked; email?: Linked; address?: string } | null {
  const { data: config } = useSiteConfig();
  const contact = siteContact(config, currentLanguage());
  const tel = contact.tel ? { href: telHref(contact.tel), text: contact.tel } : undefined;
  const email = contact.email ? { href: mailtoHref(contact.email), text: contact.email } : undefined;
  if (!tel && !email && !contact.address) return null;
  return { tel, email, address: contact.address || undefined };
}

/** A telephone number or e-mail address: a link when it has one. */
export function ContactLink({ value, testId, style }: { value: Linked; testId: string; style?: CSSProperties }) {
  return value.href ? (
    <a href={value.href} style={style} data-testid={testId}>
      {value.text}
    </a>
  ) : (
    <span data-testid={testId}>{value.text}</span>
  );
}

/**
 * The site contact as one line of "label: value" pairs (the login page's footer; no antd there).
 * The bordered list of dialogs is `SiteContactList`. Renders nothing when none is configured.
 */
export function SiteContactInfo({ color }: { color?: string }) {
  const { t } = useTranslation();
  const contact = useSiteContact();
  if (!contact) return null;
  const { tel, email, address } = contact;
  const linkStyle: CSSProperties = { color, textDecoration: 'underline' };
  return (
    <div data-testid="site-contact" style={{ color, display: 'flex', flexWrap: 'wrap', justifyContent: 'center', columnGap: 16, rowGap: 2 }}>
      {tel && (
        <span>
          {t('common:contact.tel')}: <ContactLink value={tel} testId="site-contact-tel" style={linkStyle} />
        </span>
      )}
      {address && (
        <span>
          {t('common:contact.address')}: <span data-testid="site-contact-address">{address}</span>
        </span>
      )}
      {email && (
        <span>
          {t('common:contact.email')}: <ContactLink value={email} testId="site-contact-email" style={linkStyle} />
        </span>
      )}
    </div>
  );
}
