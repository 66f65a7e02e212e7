import { DatePicker, Form, Input, Select, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DEVICE_LOG_KINDS, deviceDataRoutes } from '@iot/contract/plain';
import type { DeviceLogDto, EndpointQuery, RejectedValue } from '@iot/contract';
import { FilterBar } from './FilterBar';
import { DataTable, type DataColumn } from './DataTable';
import { parseTime } from '../lib/format';
import { useServerTable } from '../lib/use-server-table';
import { withTimeRange, type RangeValue } from '../lib/time-range';
import { api } from '../lib/api';
import { logKeys } from '../lib/query-keys';

type DeviceLogParams = EndpointQuery<typeof deviceDataRoutes.logs>;
type DeviceLogFilters = Omit<DeviceLogParams, 'page' | 'limit' | 'deviceId'>;

/** GET /logs/devicelogs: the device log (every device, or one device's on its details page). */
function useDeviceLogs(params: DeviceLogParams) {
  return useQuery({
    queryKey: logKeys.device(params),
    queryFn: () => api(deviceDataRoutes.logs, { query: params }),
    placeholderData: keepPreviousData,
  });
}

const KIND_COLORS: Record<string, string> = {
  connected: 'blue',
  disconnected: 'default',
  online: 'success',
  offline: 'default',
  rejected: 'error',
  alarm: 'warning',
  command: 'purple',
  ack: 'cyan',
};

type FilterValues = Omit<DeviceLogFilters, 'from' | 'to'> & { range?: RangeValue };

/** What a row says beyond its kind: the values dropped and why, the way the device connected… */
function details(log: DeviceLogDto, t: TFunction): string {
  const d = log.detail;
  const problems = Array.isArray(d.problems) ? (d.problems as RejectedValue[]) : [];
  if (problems.length > 0) {
    return problems
      .map((p) => {
        const what = p.semaphoreId ?? p.field;
        const reason = t(`devicelogs:reasons.${p.reason}`, { defaultValue: p.reason });
        const value = p.value === undefined ? '' : ` (${JSON.stringify(p.value)})`;
        return what ? `${what}: ${reason}${value}` : reason;
      })
      .join('; ');
  }
  const parts: string[] = [];
  if (log.kind === 'command' && typeof d.firmware === 'number') {
    // A firmware image the device downloaded (GET /ingest/firmware/:versionId), `range` when resumed.
    parts.push(
      t('devicelogs:detail.firmware', {
        version: String(d.softwareVersion ?? ''),
        id: d.firmware,
        range: typeof d.range === 'string' ? `, ${d.range}` : '',
      }),
    );
    if (typeof d.via === 'string') parts.push(t('devicelogs:detail.via', { via: d.via.toUpperCase() }));
    return parts.join(' · ');
  }
  if (log.kind === 'command' && typeof d.id === 'string' && typeof d.kind === 'string') {
    // A step of a command the console sent: which command, and what happened to it.
    parts.push(
      t('devicelogs:detail.command', {
        kind: t(`devicelogs:commandKinds.${d.kind}`, { defaultValue: d.kind }),
        id: d.id,
        event: t(`devicelogs:commandEvents.${String(d.event)}`, { defaultValue: String(d.event ?? '') }),
      }),
    );
    if (typeof d.via === 'string') parts.push(t('devicelogs:detail.via', { via: d.via.toUpperCase() }));
    return parts.join(' · ');
  }
  if (typeof d.kind === 'string') parts.push(t('devicelogs:detail.kind', { kind: d.kind }));
  if (typeof d.via === 'string') parts.push(t('devicelogs:detail.via', { via: d.via.toUpperCase() }));
  if (typeof d.why === 'string') parts.push(t(`devicelogs:why.${d.why}`, { defaultValue: d.why }));
  if (typeof d.topic === 'string') parts.push(d.topic);
  if (log.kind === 'alarm' && typeof d.id === 'string') {
    parts.push(t(d.flag === 1 ? 'devicelogs:detail.alarmStart' : 'devicelogs:detail.alarmEnd', { id: d.id }));
  }
  if (log.kind === 'ack' && typeof d.id === 'string') parts.push(`${d.id}: ${String(d.result ?? '')} ${String(d.message ?? '')}`.trim());
  return parts.join(' · ');
}

/**
 * §2 /sys/devlogs, device tab: what devices did and what was refused, newest first. With
 * `deviceId` (the device details page), one device's log without the SN filter.
 */
export function DeviceLogTable({ deviceId }: { deviceId?: number } = {}) {
  const { t } = useTranslation();
  const table = useServerTable<DeviceLogFilters>({});
  const { data, isFetching } = useDeviceLogs(deviceId ? { ...table.params, deviceId } : table.params);
  const columns: DataColumn<DeviceLogDto>[] = [
    { title: t('logs:time'), dataIndex: 'createdAt', key: 'createdAt', width: 170, render: (v: string) => parseTime(v) },
    {
      title: t('devicelogs:device'),
      key: 'device',
      width: 200,
      phone: true,
      render: (_, r) => (
        <span>
          {r.deviceName ? <Typography.Text strong>{r.deviceName}</Typography.Text> : <Typography.Text type="secondary">{t('devicelogs:unknownDevice')}</Typography.Text>}
          <br />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.sn}
          </Typography.Text>
        </span>
      ),
    },
    {
      title: t('devicelogs:kind'),
      dataIndex: 'kind',
      key: 'kind',
      width: 120,
      phone: true,
      render: (v: string) => <Tag color={KIND_COLORS[v] ?? 'default'}>{t(`devicelogs:kinds.${v}`, { defaultValue: v })}</Tag>,
    },
    {
      title: t('devicelogs:reason'),
      dataIndex: 'reason',
      key: 'reason',
      width: 170,
      phone: true,
      render: (v: string | null) => (v ? t(`devicelogs:reasons.${v}`, { defaultValue: v }) : t('common:empty')),
    },
    {
      title: t('devicelogs:details'),
      key: 'details',
      width: 240,
      render: (_, r) => {
        const text = details(r, t);
        return (
          <Typography.Text ellipsis={{ tooltip: text }} style={{ maxWidth: 220 }}>
            {text || t('common:empty')}
          </Typography.Text>
        );
      },
    },
  ];
  return (
    <>
      <FilterBar<FilterValues> onSearch={(v) => table.search(withTimeRange(v))} testId="devicelog-filters">
        {!deviceId && (
          <Form.Item name="sn">
            <Input placeholder={t('devicelogs:sn')} aria-label={t('devicelogs:sn')} allowClear style={{ width: 180 }} data-testid="filter-sn" />
          </Form.Item>
        )}
        <Form.Item name="kind">
          <Select
            allowClear
            placeholder={t('devicelogs:kind')}
            aria-label={t('devicelogs:kind')}
            style={{ width: 160 }}
            options={DEVICE_LOG_KINDS.map((k) => ({ value: k, label: t(`devicelogs:kinds.${k}`) }))}
            data-testid="filter-kind"
          />
        </Form.Item>
        <Form.Item name="range">
          <DatePicker.RangePicker />
        </Form.Item>
      </FilterBar>
      <DataTable<DeviceLogDto>
        tableId="device-logs"
        restoreScroll={false}
        columns={columns}
        data-testid="table-devicelogs"
        {...table.tableProps(data, isFetching)}
      />
    </>
  );
}
