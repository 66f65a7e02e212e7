import { Card, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../lib/session';
import { LoginHistory } from './LoginHistory';
import { roleLabel } from '../../lib/acl-labels';

/**
 * Home page. The device, alarm and chart panels of §1 come with the device modules; until then
 * the page shows only what the server really has: who is signed in and their recent logins.
 */
export default function DashboardPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  if (!user) return null;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }} data-testid="dashboard">
      <Card data-testid="dashboard-welcome">
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {t('dashboard:welcome', { name: user.name })}
        </Typography.Title>
        <Descriptions column={{ xs: 1, sm: 2, lg: 3 }} size="small">
          <Descriptions.Item label={t('fields:roleName')}>{roleLabel(user.roles[0] ?? '', user.roleName)}</Descriptions.Item>
          {user.type === 1 && (
            <Descriptions.Item label={t('fields:corporateName')}>
              {user.corporateName || t('common:empty')}
            </Descriptions.Item>
          )}
        </Descriptions>
      </Card>
      <Card title={t('dashboard:logins.title')} data-testid="dashboard-logins">
        <LoginHistory />
      </Card>
    </div>
  );
}
