import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export default function NotFound() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title="404"
      data-testid="page-404"
      subTitle={t('errors:notFound.description')}
      extra={
        <Link to="/dashboard" data-testid="back-to-dashboard">
          <Button type="primary">{t('errors:backToDashboard')}</Button>
        </Link>
      }
    />
  );
}
