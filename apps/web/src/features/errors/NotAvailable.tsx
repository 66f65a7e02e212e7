import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The honest page for menu items whose module is not part of this version yet. */
export default function NotAvailable() {
  const { t } = useTranslation();
  return (
    <Result
      status="info"
      data-testid="not-available"
      title={t('errors:notAvailable.title')}
      subTitle={t('errors:notAvailable.description')}
      extra={
        <Link to="/dashboard">
          <Button type="primary">{t('errors:backToDashboard')}</Button>
        </Link>
      }
    />
  );
}
