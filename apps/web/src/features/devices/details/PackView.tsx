import { useMemo } from 'react';
import { Card, Col, Progress, Row, Statistic, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { PACK_PARAMS } from '@iot/contract/plain';
import type { DisplayGroup, DisplayParam } from '@iot/contract';
import { EChart, type ChartOption } from '../../../lib/echarts';
import { formatNumber, formatQuantity } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { current } from './LiveParams';
import { formatValue, paramLabel } from './format';
import type { LiveValue } from './live';

const cellIndex = (id: string, prefix: string) => (id.startsWith(prefix) && id.length === prefix.length + 3 ? Number(id.slice(-3)) : 0);

/** Whether the device's type is a battery pack with cell voltages (the pack view applies). */
export function hasPack(groups: DisplayGroup[]): boolean {
  return groups.some((g) => g.params.some((p) => cellIndex(p.semaphoreId, PACK_PARAMS.cellVoltagePrefix) > 0));
}

/**
 * A battery management unit at a glance: cell voltages as bars with the lowest and highest
 * marked and their spread, cell temperatures, state of charge, current and charge state.
 */
export function PackView({ groups, liveValues }: { groups: DisplayGroup[]; liveValues: Record<string, LiveValue> }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const all = groups.flatMap((g) => g.params);
  const byId = new Map(all.map((p) => [p.semaphoreId, p]));
  const valueOf = (p: DisplayParam | undefined) => (p ? current(p, liveValues).value : null);
  const num = (p: DisplayParam | undefined) => {
    const v = valueOf(p);
    return typeof v === 'number' ? v : null;
  };
  const cells = all
    .filter((p) => cellIndex(p.semaphoreId, PACK_PARAMS.cellVoltagePrefix) > 0)
    .map((p) => ({ n: cellIndex(p.semaphoreId, PACK_PARAMS.cellVoltagePrefix), v: num(p) }));
  const temps = all
    .filter((p) => cellIndex(p.semaphoreId, PACK_PARAMS.cellTempPrefix) > 0)
    .map((p) => ({ p, v: num(p) }));
  const known = cells.filter((c): c is { n: number; v: number } => c.v !== null);
  const min = known.length ? Math.min(...known.map((c) => c.v)) : null;
  const max = known.length ? Math.max(...known.map((c) => c.v)) : null;
  const soc = num(byId.get(PACK_PARAMS.soc));
  const currentA = num(byId.get(PACK_PARAMS.current));
  const stateParam = byId.get(PACK_PARAMS.state);
  const key = cells.map((c) => c.v ?? '').join(',');

  const option = useMemo<ChartOption>(
    () => ({
      animation: false,
      grid: { left: 48, right: 16, top: 24, bottom: 32 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'category', data: cells.map((c) => `#${c.n}`) },
      yAxis: { type: 'value', name: 'V', min: (v: { min: number }) => Math.floor((v.min - 0.05) * 10) / 10 },
      series: [
        {
          type: 'bar',
          name: t('devicedetail:pack.cellVoltage'),
          data: cells.map((c) => ({
            value: c.v,
            itemStyle: { color: c.v !== null && c.v === max ? '#cf1322' : c.v !== null && c.v === min ? '#096dd9' : '#52c41a' },
          })),
        },
      ],
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key, min, max, t],
  );

  return (
    <Card size="small" title={t('devicedetail:pack.title')} data-testid="pack-view">
      <Row gutter={[16, 16]}>
        <Col xs={12} md={6}>
          <div style={{ textAlign: 'center' }}>
            <Progress type="dashboard" aria-label={t('devicedetail:pack.soc')} percent={soc ?? 0} format={() => (soc === null ? '—' : `${formatNumber(soc, 1)}%`)} size={110} />
            <div>{t('devicedetail:pack.soc')}</div>
          </div>
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('devicedetail:pack.current')} value={currentA === null ? '—' : formatQuantity(currentA, 'A', 2)} />
          <div style={{ marginTop: 12 }}>
            {stateParam && <Tag color="processing" data-testid="pack-state">{formatValue(stateParam, valueOf(stateParam), lang, t)}</Tag>}
          </div>
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('devicedetail:pack.maxCell')} value={max === null ? '—' : formatQuantity(max, 'V', 3)} valueStyle={{ color: '#cf1322' }} />
          <Statistic title={t('devicedetail:pack.minCell')} value={min === null ? '—' : formatQuantity(min, 'V', 3)} valueStyle={{ color: '#096dd9' }} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic
            title={t('devicedetail:pack.delta')}
            value={min !== null && max !== null ? formatQuantity(Math.round((max - min) * 1000), 'mV', 0) : '—'}
          />
          <div style={{ marginTop: 8 }}>
            {temps.map(({ p, v }) => (
              <Tag key={p.semaphoreId}>{`${paramLabel(p, lang)}: ${v === null ? '—' : formatQuantity(v, '°C', 1)}`}</Tag>
            ))}
          </div>
        </Col>
        <Col span={24}>
          <EChart option={option} height={220} testId="cell-chart" />
        </Col>
      </Row>
    </Card>
  );
}
