import { Card, DatePicker, Form, Input, Select, Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LOGIN_RESULTS } from '@iot/contract/plain';
import type { LoginLogDto } from '@iot/contract';
import { FilterBar } from '../../components/FilterBar';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { parseTime } from '../../lib/format';
import { useServerTable } from '../../lib/use-server-table';
import { useLoginLogs, type LoginLogFilters } from './api';
import { DeviceLogTable } from '../../components/DeviceLogTable';
import { rangeValues, withTimeRange, type RangeValue } from '../../lib/time-range';

const RESULT_COLORS: Record<string, string> = { success: 'success', failure: 'error', lockout: 'warning', logout: 'default' };

type FilterValues = Omit<LoginLogFilters, 'from' | 'to'> & { range?: RangeValue };

function LoginLogs() {
  const { t } = useTranslation();
  // The login tab's list is the page's own: in the address. The device tab's table is shared
  // with the device details page and keeps its state in memory.
  const table = useServerTable<LoginLogFilters>({ order: 'desc', url: { username: 'string', result: 'string', from: 'string', to: 'string' } });
  const { data, isFetching } = useLoginLogs(table.params);
  const columns: DataColumn<LoginLogDto>[] = [
    {
      title: t('logs:time'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 170,
      sorter: true,
      sortOrder: table.sortOrderOf('createdAt'),
      render: (v: string) => parseTime(v),
    },
    { title: t('logs:user'), dataIndex: 'username', key: 'username', width: 150, phone: true },
    {
      title: t('logs:result'),
      dataIndex: 'result',
      key: 'result',
      width: 120,
      phone: true,
      render: (v: string) => <Tag color={RESULT_COLORS[v] ?? 'default'}>{t(`logs:loginResults.${v}`, { defaultValue: v })}</Tag>,
    },
    { title: t('logs:address'), dataIndex: 'ip', key: 'ip', width: 140, phone: true },
    {
      title: t('logs:userAgent'),
      dataIndex: 'userAgent',
      key: 'userAgent',
      width: 340,
      render: (v: string) => (
        <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 320 }}>
          {v}
        </Typography.Text>
      ),
    },
  ];
  return (
    <>
      <FilterBar<FilterValues> onSearch={(v) => table.search(withTimeRange(v))} values={rangeValues(table.filters)}>
        <Form.Item name="username">
          <Input placeholder={t('logs:user')} aria-label={t('logs:user')} allowClear style={{ width: 160 }} data-testid="filter-username" />
        </Form.Item>
        <Form.Item name="result">
          <Select
            allowClear
            placeholder={t('logs:result')}
            aria-label={t('logs:result')}
            style={{ width: 140 }}
            options={LOGIN_RESULTS.map((r) => ({ value: r, label: t(`logs:loginResults.${r}`) }))}
            data-testid="filter-result"
          />
        </Form.Item>
        <Form.Item name="range">
          <DatePicker.RangePicker />
        </Form.Item>
      </FilterBar>
      <DataTable<LoginLogDto>
        tableId="login-logs"
        columns={columns}
        data-testid="table-loginlogs"
        {...table.tableProps(data, isFetching)}
      />
    </>
  );
}

/** §2 /sys/devlogs: login logs, and the device log (connections, refusals, device alarms). */
export default function DeviceLogPage() {
  const { t } = useTranslation();
  return (
    <Card data-testid="page-devlogs">
      <Tabs
        defaultActiveKey="login"
        items={[
          { key: 'login', label: <span data-testid="tab-login">{t('logs:loginTab')}</span>, children: <LoginLogs /> },
          {
            key: 'device',
            label: <span data-testid="tab-device">{t('logs:deviceTab')}</span>,
            children: <DeviceLogTable />,
          },
        ]}
      />
    </Card>
  );
}
