import type { ReactNode } from 'react';
import { Card, Segmented, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_STYLES } from '@iot/contract/plain';
import { usePermission, useSession } from '../../lib/session';
import { useHomeLive, useHomeSummary, useSaveStyle } from './api';
import { BatteryStyle } from './BatteryStyle';
import { DefaultStyle } from './DefaultStyle';
import { LoginHistory } from './LoginHistory';
import { DashCard, EmptyFleet } from './parts';
import { VoiceStyle } from './VoiceStyle';
import type { DashboardStyle } from './types';

/**
 * Home page (§1, issue #34): the caller's fleet in the style it chose (default, battery, voice),
 * switched here and saved as the user's preference; the figures follow live message 170, at most
 * one refetch a second. A fleet without devices says how to start. The recent logins stay below.
 * `fleetMap`: the map feature's card, `agentView` the rentals feature's figures of an agent and
 * `projectWeather` the projects feature's forecast of a project whose weather switch is on (on
 * the projects card), composed by the app (app/Dashboard.tsx).
 */
export default function DashboardPage({
  fleetMap,
  agentView,
  projectWeather,
}: {
  fleetMap?: ReactNode;
  agentView?: ReactNode;
  projectWeather?: (projectId: number) => ReactNode;
}) {
  const { t } = useTranslation();
  const { user } = useSession();
  // A role without home:view keeps the greeting and its logins (the server refuses the figures).
  const canView = usePermission('home:view');
  const summary = useHomeSummary(canView);
  const save = useSaveStyle();
  useHomeLive();
  if (!user) return null;
  const style: DashboardStyle = user.dashboardStyle;

  let body;
  if (!canView) body = null;
  else if (summary.isError) body = <DashCard title={t('dashboard:devices.title')} testId="home-error" error onRetry={() => void summary.refetch()} />;
  else if (summary.data?.devices.total === 0) body = <EmptyFleet />;
  // While the headline figures load, the style's cards already ask for theirs (no waterfall).
  else if (style === 'battery') body = <BatteryStyle summary={summary.data} />;
  else if (style === 'voice') body = <VoiceStyle summary={summary.data} />;
  else body = <DefaultStyle summary={summary.data} fleetMap={fleetMap} projectWeather={projectWeather} />;

  return (
    <div className="dash-grid" data-testid="dashboard" data-style={style}>
      <div className="dash-header">
        <Typography.Title level={2} className="dash-welcome" data-testid="dashboard-welcome">
          {t('dashboard:welcome', { name: user.name })}
        </Typography.Title>
        {canView && (
          <Segmented<DashboardStyle>
            value={style}
            onChange={(next) => save.mutate(next)}
            aria-label={t('dashboard:style.label')}
            data-testid="dashboard-style"
            options={DASHBOARD_STYLES.map((s) => ({ value: s, label: t(`dashboard:style.${s}`) }))}
          />
        )}
      </div>
      {agentView}
      {body}
      <Card size="small" title={<h2 className="dash-card-title">{t('dashboard:logins.title')}</h2>} data-testid="dashboard-logins">
        <LoginHistory />
      </Card>
    </div>
  );
}
