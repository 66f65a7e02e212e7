import type { ReactNode } from 'react';
import { Alert, Button, Card, Col, Empty, Row, Skeleton, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ALARM_LEVELS } from '@iot/contract/plain';
import { SEVERITY_STYLES, alarmLevelLabel } from '../../components/AlarmLevel';
import { formatCount, formatPercent } from '../../lib/format';
import { usePermission } from '../../lib/session';
import { alarmListLink, deviceAddLink, deviceImportLink, deviceListLink, startOfToday, DEVICE_LIST } from './links';
import type { HomeSummary, LevelNum } from './types';

/**
 * A dashboard card: a heading (every card has one, for screen readers' heading list), an optional
 * link to the list it summarises, and its state: a skeleton while loading, an error with a retry.
 */
export function DashCard({
  title,
  testId,
  extra,
  loading,
  error,
  onRetry,
  children,
}: {
  title: string;
  testId: string;
  extra?: ReactNode;
  loading?: boolean;
  error?: boolean;
  onRetry?: () => void;
  children?: ReactNode;
}) {
  return (
    <Card
      size="small"
      title={<h2 className="dash-card-title">{title}</h2>}
      extra={extra}
      data-testid={testId}
      style={{ height: '100%' }}
      styles={{ body: { minWidth: 0 } }}
    >
      {error ? <LoadError onRetry={onRetry} /> : loading ? <Skeleton active paragraph={{ rows: 3 }} /> : children}
    </Card>
  );
}

/** What a card shows when its figures could not be loaded. */
export function LoadError({ onRetry }: { onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      title={t('dashboard:error')}
      action={
        onRetry && (
          <Button size="small" onClick={onRetry} data-testid="dashboard-retry">
            {t('common:retry')}
          </Button>
        )
      }
    />
  );
}

/** "View all" beside a card's heading: the list the card summarises. */
export function ViewAll({ to, label, testId }: { to: string; label: string; testId?: string }) {
  return (
    <Link to={to} aria-label={label} data-testid={testId}>
      {label}
    </Link>
  );
}

/** One figure: a large number under its label, leading to the list of what it counts. */
export function Stat({ label, value, to, testId, tone }: { label: string; value: number; to?: string; testId: string; tone?: string }) {
  const number = (
    <span className="dash-stat-value" style={tone ? { color: tone } : undefined} data-testid={testId} data-value={value}>
      {formatCount(value)}
    </span>
  );
  return (
    <div className="dash-stat">
      <span className="dash-stat-label">{label}</span>
      {to ? (
        <Link to={to} aria-label={`${label}: ${formatCount(value)}`}>
          {number}
        </Link>
      ) : (
        number
      )}
    </div>
  );
}

/** Colours of online / offline / alarming figures: text colours at 4.5:1 or more on white. */
export const TONES = { online: '#237804', offline: '#595959', alarming: '#a8071a' } as const;

/**
 * The headline cards every style starts with: devices (with the share online), projects, alarms;
 * skeletons until `/home/list` answers.
 */
export function HeadlineCards({ summary }: { summary: HomeSummary | undefined }) {
  const { t } = useTranslation();
  if (!summary) {
    return (
      <Row gutter={[16, 16]} data-testid="home-loading">
        <Col xs={24} lg={12}>
          <DashCard title={t('dashboard:devices.title')} testId="home-devices" loading />
        </Col>
        <Col xs={24} sm={8} lg={4}>
          <DashCard title={t('dashboard:projects.title')} testId="home-projects" loading />
        </Col>
        <Col xs={24} sm={16} lg={8}>
          <DashCard title={t('dashboard:alarms.title')} testId="home-alarms" loading />
        </Col>
      </Row>
    );
  }
  const { devices, projects, alarms } = summary;
  const share = formatPercent(devices.online, devices.total);
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={12}>
        <DashCard title={t('dashboard:devices.title')} testId="home-devices" extra={<ViewAll to={DEVICE_LIST} label={t('dashboard:devices.viewAll')} />}>
          <div className="dash-stats">
            <Stat label={t('dashboard:devices.total')} value={devices.total} to={deviceListLink('all')} testId="home-devices-total" />
            <Stat label={t('dashboard:devices.online')} value={devices.online} to={deviceListLink('online')} testId="home-devices-online" tone={TONES.online} />
            <Stat label={t('dashboard:devices.offline')} value={devices.offline} to={deviceListLink('offline')} testId="home-devices-offline" tone={TONES.offline} />
            <Stat label={t('dashboard:devices.alarming')} value={devices.alarming} to={deviceListLink('alarming')} testId="home-devices-alarming" tone={TONES.alarming} />
          </div>
          <span className="dash-bar dash-bar-wide" aria-hidden="true">
            <span style={{ width: `${devices.total > 0 ? (devices.online / devices.total) * 100 : 0}%`, background: TONES.online }} />
          </span>
          <Typography.Text type="secondary" data-testid="home-share-online">
            {t('dashboard:devices.shareOnline', { share })}
            {devices.neverSeen > 0 && ` · ${t('dashboard:devices.neverSeen', { count: devices.neverSeen, formatted: formatCount(devices.neverSeen) })}`}
          </Typography.Text>
        </DashCard>
      </Col>
      <Col xs={24} sm={8} lg={4}>
        <DashCard title={t('dashboard:projects.title')} testId="home-projects">
          <div className="dash-stats">
            <Stat label={t('dashboard:projects.total')} value={projects.total} to="/project/index" testId="home-projects-total" />
          </div>
        </DashCard>
      </Col>
      <Col xs={24} sm={16} lg={8}>
        <DashCard title={t('dashboard:alarms.title')} testId="home-alarms" extra={<ViewAll to={alarmListLink()} label={t('dashboard:alarms.viewAll')} />}>
          <div className="dash-stats">
            <Stat label={t('dashboard:alarms.today')} value={alarms.today} to={alarmListLink({ from: startOfToday() })} testId="home-alarms-today" />
            <Stat
              label={t('dashboard:alarms.untreated')}
              value={alarms.untreated}
              to={alarmListLink({ state: 'untreated' })}
              testId="home-alarms-untreated"
              tone={alarms.untreated > 0 ? TONES.alarming : undefined}
            />
            <Stat label={t('dashboard:alarms.total')} value={alarms.total} to={alarmListLink()} testId="home-alarms-total" />
          </div>
          {alarms.total === 0 && <NoAlarms />}
        </DashCard>
      </Col>
    </Row>
  );
}

/** A calm line when no alarm has ever been raised in the caller's fleet. */
export function NoAlarms() {
  const { t } = useTranslation();
  return (
    <Typography.Text type="secondary" data-testid="home-no-alarms">
      {t('dashboard:alarms.none')}
    </Typography.Text>
  );
}

/** Alarms by level, 4 (most severe) first, in the levels' own colours and words. */
export function LevelDistribution({ data }: { data: LevelNum }) {
  const { t } = useTranslation();
  const byLevel = new Map(data.levels.map((l) => [l.level, l]));
  const max = Math.max(1, ...data.levels.map((l) => l.untreated));
  const levels = [...ALARM_LEVELS].reverse() as number[];
  const none = data.levels.every((l) => l.total === 0);
  if (none) return <NoAlarms />;
  return (
    <table className="dash-levels" data-testid="home-levels-table">
      <caption className="visually-hidden">{t('dashboard:levels.caption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('dashboard:levels.level')}</th>
          <th scope="col">{t('dashboard:levels.untreated')}</th>
          <th scope="col">{t('dashboard:levels.today')}</th>
          <th scope="col">{t('dashboard:levels.total')}</th>
        </tr>
      </thead>
      <tbody>
        {levels.map((level) => {
          const row = byLevel.get(level) ?? { level, untreated: 0, today: 0, total: 0 };
          const style = SEVERITY_STYLES[level] ?? SEVERITY_STYLES[0]!;
          return (
            <tr key={level} data-testid={`home-level-${level}`}>
              <th scope="row">
                <Link to={alarmListLink({ level })} className="dash-level-tag" style={style}>
                  {alarmLevelLabel(t, level)}
                </Link>
              </th>
              <td>
                <Link to={alarmListLink({ level, state: 'untreated' })} data-testid={`home-level-${level}-untreated`} data-value={row.untreated}>
                  {formatCount(row.untreated)}
                </Link>
                <span className="dash-bar" aria-hidden="true">
                  <span style={{ width: `${(row.untreated / max) * 100}%`, background: style.borderColor as string }} />
                </span>
              </td>
              <td data-testid={`home-level-${level}-today`}>{formatCount(row.today)}</td>
              <td data-testid={`home-level-${level}-total`}>{formatCount(row.total)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** A top-5 list: rank, name (a link) and the figure. */
export function TopList<T extends { id: number }>({
  items,
  name,
  to,
  figure,
  extra,
  testId,
  empty,
}: {
  items: readonly T[];
  name: (item: T) => ReactNode;
  to: (item: T) => string;
  figure: (item: T) => string;
  /** More about an item, after its figure (a project's weather). */
  extra?: (item: T) => ReactNode;
  testId: string;
  empty: string;
}) {
  if (items.length === 0) {
    return (
      <Typography.Text type="secondary" data-testid={`${testId}-empty`}>
        {empty}
      </Typography.Text>
    );
  }
  return (
    <ol className="dash-top" data-testid={testId}>
      {items.map((item) => (
        <li key={item.id}>
          <Link to={to(item)} className="dash-top-name">
            {name(item)}
          </Link>
          <span className="dash-top-figure">{figure(item)}</span>
          {extra?.(item)}
        </li>
      ))}
    </ol>
  );
}

/**
 * No device in the caller's fleet yet: what to do next. Add or import devices (the device list's
 * drawer and dialog, when the user may), or turn on the demo fleet.
 */
export function EmptyFleet() {
  const { t } = useTranslation();
  const canAdd = usePermission('device:add');
  const canImport = usePermission('device:import');
  const navigate = useNavigate();
  return (
    <Card data-testid="home-empty">
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <Space orientation="vertical" size={4}>
            <h2 className="dash-card-title">{t('dashboard:empty.title')}</h2>
            <Typography.Text type="secondary">{t('dashboard:empty.text')}</Typography.Text>
          </Space>
        }
      >
        <Space wrap style={{ justifyContent: 'center' }}>
          {canAdd && (
            <Button type="primary" onClick={() => void navigate(deviceAddLink)} data-testid="home-empty-add">
              {t('dashboard:empty.add')}
            </Button>
          )}
          {canImport && (
            <Button onClick={() => void navigate(deviceImportLink)} data-testid="home-empty-import">
              {t('dashboard:empty.import')}
            </Button>
          )}
        </Space>
        <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }} data-testid="home-empty-demo">
          {t('dashboard:empty.demo')} <Typography.Text code>DEMO=1</Typography.Text>
        </Typography.Paragraph>
      </Empty>
    </Card>
  );
}
