import { useMemo, useState, type ReactNode } from 'react';
import { Col, Row, Segmented, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ALARM_LEVELS } from '@iot/contract/plain';
import { AlarmLevelTag, SEVERITY_STYLES, alarmLevelLabel } from '../../components/AlarmLevel';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { formatCount, formatTime } from '../../lib/format';
import { useServerTable } from '../../lib/use-server-table';
import { FIRST_SCREEN, useAlarmTrend, useHomeDevices, useLevelNum, useProjectList, useTop5 } from './api';
import { Chart } from './Chart';
import { dayLabel } from './days';
import { DashCard, HeadlineCards, LevelDistribution, NoAlarms, TONES, TopList, ViewAll } from './parts';
import { alarmListLink, devicePage, deviceListLink, periodStart } from './links';
import type { Days, DeviceState, HomeDeviceRow, HomeSummary } from './types';

/** The 7 / 30 days switch of a card over a period. */
export function PeriodSwitch({ value, onChange, label, testId }: { value: Days; onChange: (d: Days) => void; label: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Segmented<Days>
      size="small"
      value={value}
      onChange={onChange}
      aria-label={label}
      data-testid={testId}
      options={[
        { value: 7, label: t('dashboard:period.days', { count: 7 }) },
        { value: 30, label: t('dashboard:period.days', { count: 30 }) },
      ]}
    />
  );
}

/**
 * The default style (§1): headline cards, alarm levels, trend, top 5, devices and projects, and
 * the fleet map card when the app gives one (it draws nothing while no project has its map on).
 */
export function DefaultStyle({
  summary,
  fleetMap,
  projectWeather,
}: {
  summary: HomeSummary | undefined;
  fleetMap?: ReactNode;
  projectWeather?: (projectId: number) => ReactNode;
}) {
  return (
    <div className="dash-grid" data-testid="home-style-default">
      <HeadlineCards summary={summary} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          <LevelsCard />
        </Col>
        <Col xs={24} lg={14}>
          <TrendCard />
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <TopCard />
        </Col>
        <Col xs={24} xl={8}>
          <ProjectsCard weather={projectWeather} />
        </Col>
      </Row>
      <DevicesCard />
      {fleetMap}
    </div>
  );
}

function LevelsCard() {
  const { t } = useTranslation();
  const levels = useLevelNum();
  return (
    <DashCard
      title={t('dashboard:levels.title')}
      testId="home-levels"
      loading={levels.isPending}
      error={levels.isError}
      onRetry={() => void levels.refetch()}
      extra={<ViewAll to={alarmListLink({ state: 'untreated' })} label={t('dashboard:levels.viewAll')} />}
    >
      {levels.data && <LevelDistribution data={levels.data} />}
    </DashCard>
  );
}

function TrendCard() {
  const { t } = useTranslation();
  const [days, setDays] = useState<Days>(FIRST_SCREEN.days);
  const trend = useAlarmTrend(days);
  const levels = [...ALARM_LEVELS] as number[];
  const chart = useMemo(() => {
    const rows = trend.data?.days ?? [];
    return {
      categories: rows.map((d) => dayLabel(d.date)),
      series: levels.map((level, i) => ({
        name: alarmLevelLabel(t, level),
        color: String(SEVERITY_STYLES[level]?.color ?? '#595959'),
        values: rows.map((d) => d.counts[i] ?? 0),
      })),
      empty: rows.every((d) => d.counts.every((c) => c === 0)),
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- levels is a constant
  }, [trend.data, t]);
  return (
    <DashCard
      title={t('dashboard:trend.title')}
      testId="home-trend"
      loading={trend.isPending}
      error={trend.isError}
      onRetry={() => void trend.refetch()}
      extra={<PeriodSwitch value={days} onChange={setDays} label={t('dashboard:period.label')} testId="home-trend-period" />}
    >
      {chart.empty ? (
        <NoAlarms />
      ) : (
        <Chart caption={t('dashboard:trend.caption', { count: days })} categories={chart.categories} series={chart.series} stacked testId="home-trend-chart" />
      )}
    </DashCard>
  );
}

function TopCard() {
  const { t } = useTranslation();
  const [days, setDays] = useState<Days>(FIRST_SCREEN.days);
  const top = useTop5(days);
  const count = (n: number) => t('dashboard:top.alarms', { count: n, formatted: formatCount(n) });
  return (
    <DashCard
      title={t('dashboard:top.title')}
      testId="home-top"
      loading={top.isPending}
      error={top.isError}
      onRetry={() => void top.refetch()}
      extra={<PeriodSwitch value={days} onChange={setDays} label={t('dashboard:period.label')} testId="home-top-period" />}
    >
      {top.data && (
        <Row gutter={[24, 16]}>
          <Col xs={24} md={12}>
            <h3 className="dash-subtitle">{t('dashboard:top.devices')}</h3>
            <TopList
              items={top.data.devices}
              testId="home-top-devices"
              name={(d) => (
                <>
                  {d.name} <Typography.Text type="secondary">{d.sn}</Typography.Text>
                </>
              )}
              to={(d) => devicePage(d.id)}
              figure={(d) => count(d.count)}
              empty={t('dashboard:top.none', { count: days })}
            />
          </Col>
          <Col xs={24} md={12}>
            <h3 className="dash-subtitle">{t('dashboard:top.projects')}</h3>
            <TopList
              items={top.data.projects}
              testId="home-top-projects"
              name={(p) => p.name}
              // The project's alarms of the same period as the count beside it.
              to={(p) => alarmListLink({ projectId: p.id, from: periodStart(days) })}
              figure={(p) => count(p.count)}
              empty={t('dashboard:top.none', { count: days })}
            />
          </Col>
        </Row>
      )}
    </DashCard>
  );
}

const STATES: DeviceState[] = ['all', 'online', 'offline', 'alarming', 'offline24h'];

function DevicesCard() {
  const { t } = useTranslation();
  const table = useServerTable<{ state: DeviceState }>({ limit: FIRST_SCREEN.limit, filters: { state: 'all' } });
  const state = table.filters.state;
  const list = useHomeDevices(state, table.params.page, table.params.limit);
  const columns: DataColumn<HomeDeviceRow>[] = [
    {
      key: 'name',
      title: t('dashboard:list.name'),
      dataIndex: 'name',
      width: 220,
      render: (_: unknown, d) => (
        <Link to={devicePage(d.id)} data-testid={`home-device-${d.id}`}>
          {d.name || d.sn}
        </Link>
      ),
    },
    { key: 'sn', title: t('dashboard:list.sn'), dataIndex: 'sn', width: 170, phone: true },
    {
      key: 'online',
      title: t('dashboard:list.state'),
      dataIndex: 'online',
      width: 110,
      phone: true,
      render: (online: boolean) => (
        <Tag style={{ color: online ? TONES.online : TONES.offline, background: '#fff', borderColor: '#d9d9d9' }}>
          {online ? t('dashboard:devices.online') : t('dashboard:devices.offline')}
        </Tag>
      ),
    },
    {
      key: 'maxLevel',
      title: t('dashboard:list.alarms'),
      dataIndex: 'maxLevel',
      width: 170,
      phone: true,
      render: (level: number, d) =>
        level > 0 ? (
          <span data-testid={`home-device-${d.id}-alarms`}>
            <AlarmLevelTag level={level} />
            {d.openAlarms > 1 && formatCount(d.openAlarms)}
          </span>
        ) : (
          <Typography.Text type="secondary">{t('dashboard:list.noAlarms')}</Typography.Text>
        ),
    },
    { key: 'project', title: t('dashboard:list.project'), dataIndex: 'projectName', width: 150, render: (name: string | null) => name ?? '' },
    { key: 'lastSeenAt', title: t('dashboard:list.lastSeen'), dataIndex: 'lastSeenAt', width: 140, render: (at: string | null) => (at ? formatTime(at) : t('dashboard:list.never')) },
  ];
  return (
    <DashCard
      title={t('dashboard:list.title')}
      testId="home-device-list"
      error={list.isError}
      onRetry={() => void list.refetch()}
      extra={<ViewAll to={deviceListLink(state)} label={t('dashboard:list.viewAll')} testId="home-device-list-all" />}
    >
      <div className="scroll-region" style={{ marginBottom: 12 }}>
        <Segmented<DeviceState>
          value={state}
          onChange={(s) => table.patch({ state: s })}
          aria-label={t('dashboard:list.filter')}
          data-testid="home-device-filter"
          options={STATES.map((s) => ({ value: s, label: t(`dashboard:list.states.${s}`) }))}
        />
      </div>
      <DataTable<HomeDeviceRow>
        tableId="home-devices"
        restoreScroll={false}
        columns={columns}
        {...table.tableProps(list.data, list.isFetching)}
        data-testid="home-device-table"
      />
    </DashCard>
  );
}

function ProjectsCard({ weather }: { weather?: (projectId: number) => ReactNode }) {
  const { t } = useTranslation();
  const projects = useProjectList();
  return (
    <DashCard
      title={t('dashboard:projectList.title')}
      testId="home-project-list"
      loading={projects.isPending}
      error={projects.isError}
      onRetry={() => void projects.refetch()}
      extra={<ViewAll to="/project/index" label={t('dashboard:projectList.viewAll')} />}
    >
      {projects.data && (
        <TopList
          items={projects.data.items}
          testId="home-projects-top"
          name={(p) => p.name}
          to={(p) => deviceListLink('all', { projectId: p.id })}
          figure={(p) =>
            t('dashboard:projectList.figures', {
              devices: formatCount(p.devices),
              online: formatCount(p.online),
              alarming: formatCount(p.alarming),
            })
          }
          extra={(p) => (p.weather && weather ? <span className="dash-top-extra">{weather(p.id)}</span> : null)}
          empty={t('dashboard:projectList.none')}
        />
      )}
    </DashCard>
  );
}
