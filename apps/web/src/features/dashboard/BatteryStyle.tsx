import { useMemo, useState } from 'react';
import { Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatNumber, formatQuantity } from '../../lib/format';
import { FIRST_SCREEN, useBattery } from './api';
import { Chart } from './Chart';
import { dayLabel } from './days';
import { PeriodSwitch } from './DefaultStyle';
import { devicePage } from './links';
import { DashCard, HeadlineCards, Stat, TopList } from './parts';
import type { Battery, Days, HomeSummary } from './types';

const SOC_COLOR = '#0958d9';
const CHARGED_COLOR = '#237804';
const DISCHARGED_COLOR = '#ad4e00';

/**
 * The battery style: the packs' state of charge, what they are doing, the energy they moved per
 * day and the packs that need a look (lowest SOC, hottest, cells most out of balance), under the
 * headline cards.
 */
export function BatteryStyle({ summary }: { summary: HomeSummary | undefined }) {
  const { t } = useTranslation();
  const [days, setDays] = useState<Days>(FIRST_SCREEN.days);
  const battery = useBattery(days);
  const state = { loading: battery.isPending, error: battery.isError, onRetry: () => void battery.refetch() };
  const data = battery.data;
  return (
    <div className="dash-grid" data-testid="home-style-battery">
      <HeadlineCards summary={summary} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          <DashCard title={t('dashboard:battery.soc.title')} testId="home-soc" {...state}>
            {data && <SocChart data={data} />}
          </DashCard>
        </Col>
        <Col xs={24} lg={10}>
          <DashCard title={t('dashboard:battery.states.title')} testId="home-battery-states" {...state}>
            {data && (
              <div className="dash-stats">
                <Stat label={t('dashboard:battery.states.charging')} value={data.states.charging} testId="home-battery-charging" tone={CHARGED_COLOR} />
                <Stat label={t('dashboard:battery.states.discharging')} value={data.states.discharging} testId="home-battery-discharging" tone={DISCHARGED_COLOR} />
                <Stat label={t('dashboard:battery.states.idle')} value={data.states.idle} testId="home-battery-idle" />
                <Stat label={t('dashboard:battery.states.unknown')} value={data.states.unknown} testId="home-battery-unknown" />
              </div>
            )}
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0, marginTop: 8 }}>
              {t('dashboard:battery.states.hint')}
            </Typography.Paragraph>
          </DashCard>
        </Col>
      </Row>
      <DashCard
        title={t('dashboard:battery.energy.title')}
        testId="home-energy"
        {...state}
        extra={<PeriodSwitch value={days} onChange={setDays} label={t('dashboard:period.label')} testId="home-energy-period" />}
      >
        {data && <EnergyChart data={data} days={days} />}
      </DashCard>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <DashCard title={t('dashboard:battery.lowest.title')} testId="home-lowest-soc" {...state}>
            {data && (
              <TopList
                items={data.lowestSoc}
                testId="home-lowest-soc-list"
                name={(d) => d.name || d.sn}
                to={(d) => devicePage(d.id)}
                figure={(d) => formatQuantity(d.soc, '%', 0)}
                empty={t('dashboard:battery.none')}
              />
            )}
          </DashCard>
        </Col>
        <Col xs={24} md={8}>
          <DashCard title={t('dashboard:battery.hottest.title')} testId="home-hottest" {...state}>
            {data && (
              <TopList
                items={data.hottest}
                testId="home-hottest-list"
                name={(d) => d.name || d.sn}
                to={(d) => devicePage(d.id)}
                figure={(d) => formatQuantity(d.temperature, '°C', 1)}
                empty={t('dashboard:battery.none')}
              />
            )}
          </DashCard>
        </Col>
        <Col xs={24} md={8}>
          <DashCard title={t('dashboard:battery.imbalance.title')} testId="home-imbalance" {...state}>
            {data && (
              <TopList
                items={data.imbalance}
                testId="home-imbalance-list"
                name={(d) => d.name || d.sn}
                to={(d) => devicePage(d.id)}
                figure={(d) => formatQuantity(d.deltaMv, 'mV', 0)}
                empty={t('dashboard:battery.none')}
              />
            )}
          </DashCard>
        </Col>
      </Row>
    </div>
  );
}

function SocChart({ data }: { data: Battery }) {
  const { t } = useTranslation();
  const chart = useMemo(() => {
    const categories = data.soc.buckets.map((_, i) => `${formatNumber(i * 10)}–${formatQuantity(i * 10 + 10, '%')}`);
    return {
      categories: [...categories, t('dashboard:unknown')],
      series: [{ name: t('dashboard:battery.soc.packs'), color: SOC_COLOR, values: [...data.soc.buckets, data.soc.unknown] }],
    };
  }, [data, t]);
  const total = data.soc.buckets.reduce((a, b) => a + b, 0) + data.soc.unknown;
  if (total === 0) {
    return (
      <Typography.Text type="secondary" data-testid="home-soc-empty">
        {t('dashboard:battery.none')}
      </Typography.Text>
    );
  }
  return <Chart caption={t('dashboard:battery.soc.caption')} categories={chart.categories} series={chart.series} testId="home-soc-chart" />;
}

function EnergyChart({ data, days }: { data: Battery; days: Days }) {
  const { t } = useTranslation();
  const chart = useMemo(
    () => ({
      categories: data.energy.map((d) => dayLabel(d.date)),
      series: [
        { name: t('dashboard:battery.energy.charged'), color: CHARGED_COLOR, values: data.energy.map((d) => d.chargedKwh) },
        { name: t('dashboard:battery.energy.discharged'), color: DISCHARGED_COLOR, values: data.energy.map((d) => d.dischargedKwh) },
      ],
    }),
    [data, t],
  );
  const known = data.energy.some((d) => d.chargedKwh !== null || d.dischargedKwh !== null);
  if (!known) {
    return (
      <Typography.Text type="secondary" data-testid="home-energy-empty">
        {t('dashboard:battery.energy.none')}
      </Typography.Text>
    );
  }
  const sum = (k: 'chargedKwh' | 'dischargedKwh') => data.energy.reduce((a, d) => a + (d[k] ?? 0), 0);
  return (
    <>
      <Typography.Paragraph type="secondary" data-testid="home-energy-sum">
        {t('dashboard:battery.energy.sum', {
          count: days,
          charged: formatQuantity(sum('chargedKwh'), 'kWh', 1),
          discharged: formatQuantity(sum('dischargedKwh'), 'kWh', 1),
        })}
      </Typography.Paragraph>
      <Chart caption={t('dashboard:battery.energy.caption', { count: days })} categories={chart.categories} series={chart.series} testId="home-energy-chart" />
    </>
  );
}

