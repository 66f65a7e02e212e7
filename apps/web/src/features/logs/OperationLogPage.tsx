import { Card, DatePicker, Form, Input, Select, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { OperationLogDto } from '@iot/contract';
import { FilterBar } from '../../components/FilterBar';
import { parseTime } from '../../lib/format';
import { useServerTable } from '../../lib/use-server-table';
import { useOperationLogs, type OperationLogFilters } from './api';
import { withTimeRange, type RangeValue } from './time-range';

type FilterValues = Omit<OperationLogFilters, 'from' | 'to'> & { range?: RangeValue };

/** Entities the server writes operation-log rows for. */
const ENTITIES = ['user', 'role', 'permission', 'menu', 'email', 'devicetype', 'project', 'roadsection', 'device'];

/** §2 /sys/logs: who changed what, when, from where, and whether it was allowed. */
export default function OperationLogPage() {
  const { t } = useTranslation();
  const table = useServerTable<OperationLogFilters>({ order: 'desc' });
  const { data, isFetching } = useOperationLogs(table.params);

  const columns: ColumnsType<OperationLogDto> = [
    {
      title: t('logs:time'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 170,
      sorter: true,
      sortOrder: table.sortOrderOf('createdAt'),
      render: (v: string) => parseTime(v),
    },
    { title: t('logs:user'), dataIndex: 'username', width: 130 },
    { title: t('logs:role'), dataIndex: 'role', width: 130 },
    { title: t('logs:action'), dataIndex: 'action', width: 170, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
    { title: t('logs:entity'), dataIndex: 'entity', width: 110, render: (v: string) => t(`logs:entities.${v}`, { defaultValue: v }) },
    { title: t('logs:entityId'), dataIndex: 'entityId', width: 90 },
    {
      title: t('logs:summary'),
      dataIndex: 'summary',
      render: (v: string) => (
        <Tooltip title={<span style={{ wordBreak: 'break-all' }}>{v}</span>} placement="topLeft">
          <Typography.Text ellipsis style={{ maxWidth: 320 }}>
            {v}
          </Typography.Text>
        </Tooltip>
      ),
    },
    { title: t('logs:address'), dataIndex: 'ip', width: 130 },
    {
      title: t('logs:userAgent'),
      dataIndex: 'userAgent',
      width: 200,
      render: (v: string) => (
        <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 180 }}>
          {v}
        </Typography.Text>
      ),
    },
    {
      title: t('logs:result'),
      dataIndex: 'result',
      width: 100,
      fixed: 'right',
      render: (v: string) => (
        <Tag color={v === 'success' ? 'success' : 'error'}>{t(`logs:results.${v}`, { defaultValue: v })}</Tag>
      ),
    },
  ];

  return (
    <Card data-testid="page-logs">
      <FilterBar<FilterValues> onSearch={(v) => table.search(withTimeRange(v))}>
        <Form.Item name="username">
          <Input placeholder={t('logs:user')} allowClear style={{ width: 150 }} data-testid="filter-username" />
        </Form.Item>
        <Form.Item name="action">
          <Input placeholder={t('logs:actionPlaceholder')} allowClear style={{ width: 170 }} data-testid="filter-action" />
        </Form.Item>
        <Form.Item name="entity">
          <Select
            allowClear
            placeholder={t('logs:entity')}
            style={{ width: 150 }}
            options={ENTITIES.map((e) => ({ value: e, label: t(`logs:entities.${e}`) }))}
            data-testid="filter-entity"
          />
        </Form.Item>
        <Form.Item name="result">
          <Select
            allowClear
            placeholder={t('logs:result')}
            style={{ width: 130 }}
            options={[
              { value: 'success', label: t('logs:results.success') },
              { value: 'failure', label: t('logs:results.failure') },
            ]}
            data-testid="filter-result"
          />
        </Form.Item>
        <Form.Item name="range">
          <DatePicker.RangePicker />
        </Form.Item>
      </FilterBar>
      <Table<OperationLogDto>
        rowKey="id"
        size="middle"
        columns={columns}
        scroll={{ x: 1600 }}
        data-testid="table-logs"
        {...table.tableProps(data, isFetching)}
      />
    </Card>
  );
}
