import { Button, DatePicker, Drawer, Form, Popconfirm, Select, Space, Tag } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EXTERNAL_EVENTS, EXTERNAL_UPGRADE_EVENTS, type ExternalEvent } from '@iot/contract/plain';
import type { ExternalDeviceDto, ExternalLogDto } from '@iot/contract';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { FilterBar } from '../../../components/FilterBar';
import { parseTime } from '../../../lib/format';
import { feedbackMessage } from '../../../lib/feedback';
import { rangeValues, withTimeRange, type RangeValue } from '../../../lib/time-range';
import { useServerTable } from '../../../lib/use-server-table';
import { useDeleteExternalLogs, useExternalLogs } from './api';

const EVENT_COLORS: Partial<Record<ExternalEvent, string>> = {
  assign: 'blue',
  cancel: 'warning',
  download: 'processing',
  progress: 'processing',
  result: 'purple',
  succeeded: 'success',
  failed: 'error',
};

interface Filters {
  event?: ExternalEvent;
  from?: string;
  to?: string;
}
type FilterValues = Omit<Filters, 'from' | 'to'> & { range?: RangeValue };

/**
 * One external device's log, newest first: every check-in, download, progress and result
 * (`upgradeOnly`: the upgrade events alone), filtered by event and days; its logs can be deleted.
 */
export function LogsDrawer({ device, upgradeOnly, onClose }: { device: ExternalDeviceDto | null; upgradeOnly: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const table = useServerTable<Filters>({ order: 'desc', limit: 10 });
  const logs = useExternalLogs({ ...table.params, deviceId: device?.id }, upgradeOnly, !!device);
  const remove = useDeleteExternalLogs();
  const events = upgradeOnly ? EXTERNAL_UPGRADE_EVENTS : EXTERNAL_EVENTS;

  const columns: DataColumn<ExternalLogDto>[] = [
    { title: t('external:log.at'), dataIndex: 'at', key: 'at', width: 170, phone: true, render: (v: string) => parseTime(v) },
    {
      title: t('external:log.event'),
      dataIndex: 'event',
      key: 'event',
      width: 120,
      phone: true,
      render: (e: ExternalEvent) => <Tag color={EVENT_COLORS[e] ?? 'default'}>{t(`external:events.${e}`)}</Tag>,
    },
    { title: t('external:log.version'), dataIndex: 'version', key: 'version', width: 110 },
    { title: t('external:fields.progress'), dataIndex: 'progress', key: 'progress', width: 90, render: (v: number | null) => (v === null ? '' : `${v} %`) },
    { title: t('external:log.message'), dataIndex: 'message', key: 'message', width: 220 },
    { title: t('external:log.address'), dataIndex: 'address', key: 'address', width: 130 },
  ];

  const deleteAll = async () => {
    if (!device) return;
    const { count } = await remove.mutateAsync({ deviceId: device.id });
    feedbackMessage().success(t('external:logsDeleted', { count }));
  };

  return (
    <Drawer
      open={!!device}
      onClose={onClose}
      size={900}
      destroyOnHidden
      title={device ? t(upgradeOnly ? 'external:upgradeLogsOf' : 'external:logsOf', { identifier: device.identifier }) : ''}
      data-testid="external-logs-drawer"
      extra={
        <Popconfirm
          title={t('external:deleteLogsConfirm', { identifier: device?.identifier ?? '' })}
          okText={t('common:confirm')}
          cancelText={t('common:cancel')}
          okButtonProps={{ danger: true, ...({ 'data-testid': 'confirm-ok' } as Record<string, string>) }}
          onConfirm={deleteAll}
        >
          <Button danger icon={<DeleteOutlined />} data-testid="external-logs-delete">
            {t('external:deleteLogs')}
          </Button>
        </Popconfirm>
      }
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <FilterBar<FilterValues> onSearch={(v) => table.search(withTimeRange(v))} values={rangeValues(table.filters)} testId="external-logs-filter">
          <Form.Item name="event">
            <Select
              allowClear
              placeholder={t('external:log.event')}
              aria-label={t('external:log.event')}
              style={{ width: 150 }}
              options={events.map((e) => ({ value: e, label: t(`external:events.${e}`) }))}
            />
          </Form.Item>
          <Form.Item name="range">
            <DatePicker.RangePicker aria-label={t('external:log.at')} />
          </Form.Item>
        </FilterBar>
        <DataTable<ExternalLogDto> tableId="external-logs" columns={columns} restoreScroll={false} data-testid="table-external-logs" {...table.tableProps(logs.data, logs.isFetching)} />
      </Space>
    </Drawer>
  );
}
