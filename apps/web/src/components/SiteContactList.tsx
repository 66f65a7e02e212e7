import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { ContactLink, useSiteContact } from './SiteContactInfo';

/** The site contact as a bordered list with a title (dialogs); nothing when none is configured. */
export function SiteContactList() {
  const { t } = useTranslation();
  const contact = useSiteContact();
  if (!contact) return null;
  const { tel, email, address } = contact;
  return (
    <Descriptions column={1} bordered size="small" title={t('common:contact.title')} data-testid="site-contact" style={{ marginTop: 16 }}>
      {tel && (
        <Descriptions.Item label={t('common:contact.tel')}>
          <ContactLink value={tel} testId="site-contact-tel" />
        </Descriptions.Item>
      )}
      {address && (
        <Descriptions.Item label={t('common:contact.address')}>
          <span data-testid="site-contact-address">{address}</span>
        </Descriptions.Item>
      )}
      {email && (
        <Descriptions.Item label={t('common:contact.email')}>
          <ContactLink value={email} testId="site-contact-email" />
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}
