import { Card, Row } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSummary } from './api';
import { Figure } from './Figure';

const tz = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * The agent's figures on the home dashboard (composed by app/Dashboard.tsx for holders of
 * rent:overview): available and rented packs, active and overdue rentals, each opening its list,
 * and the way to the agent view.
 */
export default function AgentStrip() {
  const { t } = useTranslation();
  const s = useSummary({ period: 'day', tz: tz() }).data;
  return (
    <Card
      size="small"
      title={<h2 className="dash-card-title">{t('rentals:overview.title')}</h2>}
      extra={<Link to="/rent/overview">{t('rentals:overview.open')}</Link>}
      data-testid="dashboard-agent"
    >
      <Row gutter={[12, 12]}>
        <Figure title={t('rentals:overview.stores')} value={s?.stores.total} to="/store/index" />
        <Figure title={t('rentals:stockStates.available')} value={s?.stock.available} to="/rent/overview" />
        <Figure title={t('rentals:stockStates.rented')} value={s?.stock.rented} to="/rent/overview" />
        <Figure title={t('rentals:states.active')} value={s?.rentals.active} to="/rent/index?state=active" />
        <Figure title={t('rentals:states.overdue')} value={s?.rentals.overdue} to="/rent/index?state=overdue" testId="dashboard-agent-overdue" />
      </Row>
    </Card>
  );
}
