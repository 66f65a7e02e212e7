import { useCallback, useMemo, useState } from 'react';
import { Button, Card, DatePicker, Empty, Radio, Select, Space, Spin, Table, Typography } from 'antd';
import { DownloadOutlined, ZoomOutOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { DisplayGroup, DisplayParam, HistoryRow } from '@iot/contract';
import { EChart, type ChartOption, type ZoomWindow } from '../../../lib/echarts';
import { parseTime } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { exportHistory, useChart, useHistory, useHistoryRange } from './api';
import { chartable, formatValue, paramLabel } from './format';

const PRESETS = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
type Preset = keyof typeof PRESETS | 'custom';

/** Gap between stacked y axes on one side of the chart (px). */
const AXIS_OFFSET = 56;

/**
 * One y axis per unit ('' for values without one), alternating left and right: volts and
 * amperes each get a scale of their own instead of flattening each other on a shared one. A
 * chart without series still needs one axis.
 */
const axesByUnit = (units: readonly string[]): string[] => (units.length > 0 ? [...new Set(units)] : ['']);

/** The default parameters to show: the first two chartable ones of the first group. */
const defaults = (params: DisplayParam[]) => params.filter(chartable).slice(0, 2).map((p) => p.semaphoreId);

/**
 * History: parameters and a time range (presets or custom); ECharts lines downsampled on the
 * server (zooming asks the server again for the zoomed window), and the messages as a
 * server-paged table with .xlsx/.csv export.
 */
export function HistoryTab({ deviceId, groups }: { deviceId: number; groups: DisplayGroup[] }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const params = useMemo(() => groups.flatMap((g) => g.params), [groups]);
  const byId = useMemo(() => new Map(params.map((p) => [p.semaphoreId, p])), [params]);
  const [ids, setIds] = useState<string[]>(() => defaults(params));
  // The parameters arrived after the tab opened: start with the defaults then.
  const [seeded, setSeeded] = useState(params.length > 0);
  if (!seeded && params.length > 0) {
    setSeeded(true);
    setIds(defaults(params));
  }
  const [preset, setPreset] = useState<Preset>('24h');
  const [custom, setCustom] = useState<[Dayjs, Dayjs] | null>(null);
  // The range chosen; the anchor is fixed when chosen so queries stay stable.
  const [range, setRange] = useState(() => ({ from: Date.now() - PRESETS['24h'], to: Date.now() }));
  // Where the tab opens, from the server: the last day, or the day up to the device's newest
  // message when it has been silent longer (a chart of a silent day looks like no data at all),
  // from its first message in that day. Failing that, the last 24 hours.
  const opening = useHistoryRange(deviceId);
  const [opened, setOpened] = useState(false);
  if (!opened && !opening.isPending) {
    setOpened(true);
    if (opening.data) {
      const from = Date.parse(opening.data.from);
      const to = Date.parse(opening.data.to);
      setRange({ from, to });
      if (opening.data.basis === 'past') {
        setPreset('custom');
        setCustom([dayjs(from), dayjs(to)]);
      }
    }
  }
  const [zoom, setZoom] = useState<ZoomWindow | undefined>();
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(20);

  const choosePreset = (p: Preset) => {
    setPreset(p);
    if (p !== 'custom') {
      const now = Date.now();
      setRange({ from: now - PRESETS[p], to: now });
      setZoom(undefined);
      setPage(1);
    }
  };
  const chooseCustom = (v: [Dayjs, Dayjs] | null) => {
    setCustom(v);
    if (v) {
      setRange({ from: v[0].valueOf(), to: v[1].valueOf() });
      setZoom(undefined);
      setPage(1);
    }
  };

  const chartIds = ids.filter((id) => byId.get(id) && chartable(byId.get(id)!));
  const window = zoom ?? { start: range.from, end: range.to };
  const chart = useChart(
    opened && chartIds.length > 0
      ? {
          id: deviceId,
          semaphoreIds: chartIds.join(','),
          from: new Date(window.start).toISOString(),
          to: new Date(window.end).toISOString(),
        }
      : undefined,
  );
  const historyQuery =
    opened && ids.length > 0
      ? {
          id: deviceId,
          semaphoreIds: ids.join(','),
          from: new Date(range.from).toISOString(),
          to: new Date(range.to).toISOString(),
          page,
          limit,
        }
      : undefined;
  const table = useHistory(historyQuery);

  const onZoom = useCallback(
    (w: ZoomWindow) => {
      // A zoom narrower than what is drawn asks the server for that window (finer buckets).
      if (w.end - w.start < 1000) return;
      setZoom((cur) => {
        const span = (cur?.end ?? range.to) - (cur?.start ?? range.from);
        return w.end - w.start < span * 0.98 ? { start: Math.round(w.start), end: Math.round(w.end) } : cur;
      });
    },
    [range],
  );

  const units = useMemo(
    () => axesByUnit((chart.data?.series ?? []).map((x) => byId.get(x.semaphoreId)?.unit ?? '')),
    [chart.data, byId],
  );

  const option = useMemo<ChartOption>(() => {
    const series = chart.data?.series ?? [];
    const side = (i: number) => (i % 2 === 0 ? 'left' : 'right');
    const perSide = (s: 'left' | 'right') => units.filter((_, i) => side(i) === s).length;
    return {
      animation: false,
      grid: {
        left: 56 + Math.max(0, perSide('left') - 1) * AXIS_OFFSET,
        right: perSide('right') > 0 ? 56 + (perSide('right') - 1) * AXIS_OFFSET : 24,
        top: 40,
        bottom: 72,
      },
      legend: { top: 4 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'time', min: Date.parse(chart.data?.from ?? '') || window.start, max: Date.parse(chart.data?.to ?? '') || window.end },
      yAxis: units.map((unit, i) => ({
        type: 'value',
        scale: true,
        name: unit || undefined,
        position: side(i),
        offset: Math.floor(i / 2) * AXIS_OFFSET,
        alignTicks: i > 0,
        axisLine: { show: units.length > 1 },
      })),
      dataZoom: [
        { type: 'inside', xAxisIndex: 0, filterMode: 'none' },
        { type: 'slider', xAxisIndex: 0, filterMode: 'none', bottom: 16 },
      ],
      series: series.map((s) => {
        const p = byId.get(s.semaphoreId);
        return {
          type: 'line',
          name: p ? `${paramLabel(p, lang)}${p.unit ? ` (${p.unit})` : ''}` : s.semaphoreId,
          yAxisIndex: Math.max(0, units.indexOf(p?.unit ?? '')),
          showSymbol: s.points.length < 100,
          sampling: undefined,
          data: s.points,
        };
      }),
    };
  }, [chart.data, units, byId, lang, window.start, window.end]);

  const columns: ColumnsType<HistoryRow> = [
    { title: t('devicedetail:history.time'), dataIndex: 'ts', width: 180, fixed: 'start', render: (v: string) => parseTime(v) },
    ...ids.map((id) => {
      const p = byId.get(id);
      return {
        title: p ? `${paramLabel(p, lang)}${p.unit ? ` (${p.unit})` : ''}` : id,
        key: id,
        width: 140,
        render: (_: unknown, r: HistoryRow) => (p ? formatValue(p, r.values[id] ?? null, lang, t) : String(r.values[id] ?? '')),
      };
    }),
  ];

  const download = (format: 'xlsx' | 'csv') =>
    void exportHistory({
      id: deviceId,
      semaphoreIds: ids.join(','),
      from: new Date(range.from).toISOString(),
      to: new Date(range.to).toISOString(),
      format,
      lang,
    }).catch(() => undefined);

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Space wrap>
        <Select
          mode="multiple"
          style={{ minWidth: 360, maxWidth: 720 }}
          value={ids}
          onChange={(v: string[]) => {
            setIds(v.slice(0, 50));
            setPage(1);
          }}
          placeholder={t('devicedetail:history.params')}
          aria-label={t('devicedetail:history.params')}
          optionFilterProp="label"
          maxTagCount="responsive"
          data-testid="history-params"
          options={groups.map((g) => ({
            label: t(`devicedetail:groups.${g.group || 'other'}`, { defaultValue: g.group }),
            options: g.params.map((p) => ({ value: p.semaphoreId, label: paramLabel(p, lang) })),
          }))}
        />
        <Radio.Group value={preset} onChange={(e) => choosePreset(e.target.value as Preset)} optionType="button" data-testid="history-presets">
          {(['1h', '24h', '7d', '30d', 'custom'] as const).map((p) => (
            <Radio.Button key={p} value={p} data-testid={`preset-${p}`}>
              {t(`devicedetail:history.presets.${p}`)}
            </Radio.Button>
          ))}
        </Radio.Group>
        {preset === 'custom' && (
          <DatePicker.RangePicker
            showTime
            value={custom}
            onChange={(v) => chooseCustom(v && v[0] && v[1] ? [v[0], v[1]] : null)}
            disabledDate={(d) => d.isAfter(dayjs().add(1, 'day'))}
          />
        )}
      </Space>
      {!opened ? (
        <Spin />
      ) : ids.length === 0 ? (
        <Empty description={t('devicedetail:history.chooseParams')} />
      ) : (
        <>
          <Card
            size="small"
            title={t('devicedetail:history.chart')}
            extra={
              <Space>
                {chart.data && (
                  <Typography.Text type="secondary" data-testid="chart-window">
                    {`${parseTime(chart.data.from)} – ${parseTime(chart.data.to)}`}
                  </Typography.Text>
                )}
                <Button size="small" icon={<ZoomOutOutlined />} disabled={!zoom} onClick={() => setZoom(undefined)} data-testid="chart-reset-zoom">
                  {t('devicedetail:history.resetZoom')}
                </Button>
              </Space>
            }
          >
            {chartIds.length === 0 ? (
              <Empty description={t('devicedetail:history.notChartable')} />
            ) : (
              <div
                data-testid="history-chart"
                data-loading={chart.isFetching ? 'true' : 'false'}
                data-points={chart.data?.series.map((s) => s.points.length).join(',') ?? ''}
                data-axes={units.join(',')}
              >
                <EChart option={option} height={340} onZoom={onZoom} />
              </div>
            )}
          </Card>
          <Card
            size="small"
            title={t('devicedetail:history.table')}
            extra={
              <Space>
                <Button size="small" icon={<DownloadOutlined />} onClick={() => download('xlsx')} data-testid="history-export-xlsx">
                  .xlsx
                </Button>
                <Button size="small" icon={<DownloadOutlined />} onClick={() => download('csv')} data-testid="history-export-csv">
                  .csv
                </Button>
              </Space>
            }
          >
            <Table<HistoryRow>
              rowKey="ts"
              size="small"
              columns={columns}
              dataSource={table.data?.items ?? []}
              loading={table.isFetching}
              scroll={{ x: 180 + ids.length * 140 }}
              data-testid="history-table"
              pagination={{
                current: page,
                pageSize: limit,
                total: table.data?.total ?? 0,
                showSizeChanger: true,
                pageSizeOptions: [20, 50, 100, 200],
                showTotal: (total) =>
                  table.data && !table.data.exact
                    ? t('devicedetail:history.totalAtLeast', { count: total })
                    : t('devicedetail:history.total', { count: total }),
                onChange: (p, s) => {
                  setPage(s !== limit ? 1 : p);
                  setLimit(s);
                },
              }}
            />
          </Card>
        </>
      )}
    </Space>
  );
}
