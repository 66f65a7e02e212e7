import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export default function Unauthorized() {
  const { t } = useTranslation();
  return (
    <Result
      status="403"
      title="401"
      data-testid="page-401"
      subTitle={t('errors:unauthorized.description')}
      extra={
        <Link to="/dashboard" data-testid="back-to-dashboard">
          <Button type="primary">{t('errors:backToDashboard')}</Button>
        </Link>
      }
    />
  );
}
