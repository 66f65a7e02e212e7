import type { CSSProperties } from 'react';
import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../lib/i18n';
import { mailtoHref, siteContact, telHref, useSiteConfig } from '../lib/site';

interface Props {
  /** `line`: one line of "label value" pairs (login footer); `list`: a bordered list (dialogs). */
  variant: 'line' | 'list';
  /** Text and link colour of the line variant. */
  color?: string;
}

/**
 * The site operator's telephone, address and e-mail from the site configuration (§1), in the UI
 * language; telephone and e-mail are links. Renders nothing when none is configured.
 */
export function SiteContactInfo({ variant, color }: Props) {
  const { t } = useTranslation();
  const { data: config } = useSiteConfig();
  const contact = siteContact(config, currentLanguage());
  const tel = contact.tel && { href: telHref(contact.tel), text: contact.tel };
  const email = contact.email && { href: mailtoHref(contact.email), text: contact.email };
  if (!tel && !email && !contact.address) return null;

  const link = (value: { href?: string; text: string }, testId: string, style?: CSSProperties) =>
    value.href ? (
      <a href={value.href} style={style} data-testid={testId}>
        {value.text}
      </a>
    ) : (
      <span data-testid={testId}>{value.text}</span>
    );

  if (variant === 'list') {
    return (
      <Descriptions
        column={1}
        bordered
        size="small"
        title={t('common:contact.title')}
        data-testid="site-contact"
        style={{ marginTop: 16 }}
      >
        {tel && <Descriptions.Item label={t('common:contact.tel')}>{link(tel, 'site-contact-tel')}</Descriptions.Item>}
        {contact.address && (
          <Descriptions.Item label={t('common:contact.address')}>
            <span data-testid="site-contact-address">{contact.address}</span>
          </Descriptions.Item>
        )}
        {email && <Descriptions.Item label={t('common:contact.email')}>{link(email, 'site-contact-email')}</Descriptions.Item>}
      </Descriptions>
    );
  }

  const linkStyle: CSSProperties = { color, textDecoration: 'underline' };
  const parts = [
    tel && (
      <span key="tel">
        {t('common:contact.tel')}: {link(tel, 'site-contact-tel', linkStyle)}
      </span>
    ),
    contact.address && (
      <span key="address">
        {t('common:contact.address')}: <span data-testid="site-contact-address">{contact.address}</span>
      </span>
    ),
    email && (
      <span key="email">
        {t('common:contact.email')}: {link(email, 'site-contact-email', linkStyle)}
      </span>
    ),
  ].filter(Boolean);
  return (
    <div data-testid="site-contact" style={{ color, display: 'flex', flexWrap: 'wrap', justifyContent: 'center', columnGap: 16, rowGap: 2 }}>
      {parts}
    </div>
  );
}
