import { useMemo, useState } from 'react';
import { Card, Col, Radio, Row, Space, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import type { EnergyGranularity } from '@iot/contract';
import { EChart, type ChartOption } from '../../../lib/echarts';
import { formatQuantity } from '../../../lib/format';
import { useEnergy } from './api';

const SPAN_DAYS: Record<EnergyGranularity, number> = { day: 30, week: 7 * 26, month: 365 };

/** Charged and discharged kWh per day, week or month (computed by the server in SQL), with totals. */
export function EnergyTab({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const [granularity, setGranularity] = useState<EnergyGranularity>('day');
  // Whole UTC days up to the end of today.
  const [to] = useState(() => new Date(Math.ceil(Date.now() / 86_400_000) * 86_400_000));
  const from = new Date(to.getTime() - SPAN_DAYS[granularity] * 86_400_000);
  const { data, isFetching } = useEnergy({ id: deviceId, from: from.toISOString(), to: to.toISOString(), granularity });

  const option = useMemo<ChartOption>(() => {
    const buckets = data?.buckets ?? [];
    const label = (iso: string) => (granularity === 'month' ? iso.slice(0, 7) : iso.slice(0, 10));
    return {
      animation: false,
      grid: { left: 56, right: 24, top: 40, bottom: 40 },
      legend: { top: 4 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'category', data: buckets.map((b) => label(b.start)) },
      yAxis: { type: 'value', name: 'kWh' },
      series: [
        { type: 'bar', name: t('devicedetail:energy.charged'), data: buckets.map((b) => b.chargedKwh), itemStyle: { color: '#52c41a' } },
        { type: 'bar', name: t('devicedetail:energy.discharged'), data: buckets.map((b) => b.dischargedKwh), itemStyle: { color: '#fa8c16' } },
      ],
    };
  }, [data, granularity, t]);

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Radio.Group value={granularity} onChange={(e) => setGranularity(e.target.value as EnergyGranularity)} optionType="button">
        {(['day', 'week', 'month'] as const).map((g) => (
          <Radio.Button key={g} value={g}>
            {t(`devicedetail:energy.${g}`)}
          </Radio.Button>
        ))}
      </Radio.Group>
      <Row gutter={16}>
        <Col xs={12} md={6}>
          <Statistic title={t('devicedetail:energy.totalCharged')} value={formatQuantity(data?.chargedKwh ?? 0, 'kWh', 2)} loading={isFetching && !data} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('devicedetail:energy.totalDischarged')} value={formatQuantity(data?.dischargedKwh ?? 0, 'kWh', 2)} loading={isFetching && !data} />
        </Col>
      </Row>
      <Card size="small" title={t('devicedetail:energy.title')}>
        <EChart option={option} height={320} testId="energy-chart" />
      </Card>
    </Space>
  );
}
