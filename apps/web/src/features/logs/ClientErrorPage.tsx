import { useState } from 'react';
import { Button, Card, DatePicker, Form, Input, Select, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CLIENT_ERROR_KINDS } from '@iot/contract/plain';
import type { ClientErrorDto } from '@iot/contract';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { FilterBar } from '../../components/FilterBar';
import { parseTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { rangeValues, withTimeRange, type RangeValue } from '../../lib/time-range';
import { useServerTable } from '../../lib/use-server-table';
import { exportClientErrors, useClientErrors, type ClientErrorFilters } from './api';

const KIND_COLORS: Record<string, string> = { error: 'error', rejection: 'warning', chunk: 'processing' };

type FilterValues = Omit<ClientErrorFilters, 'from' | 'to'> & { range?: RangeValue };

/**
 * Errors the console hit in browsers (issue #39): what failed, on which page and build, in which
 * browser; the stack in the row's expansion. No user is recorded.
 */
export default function ClientErrorPage() {
  const { t } = useTranslation();
  const table = useServerTable<ClientErrorFilters>({
    order: 'desc',
    url: { kind: 'string', q: 'string', route: 'string', version: 'string', from: 'string', to: 'string' },
  });
  const { data, isFetching } = useClientErrors(table.params);
  const [exporting, setExporting] = useState(false);

  const doExport = async () => {
    setExporting(true);
    try {
      const { page: _p, limit: _l, after: _a, ...q } = table.params as Record<string, unknown>;
      await exportClientErrors({ ...(q as ClientErrorFilters), lang: currentLanguage() });
    } catch {
      // reported by downloadFile
    } finally {
      setExporting(false);
    }
  };

  const columns: DataColumn<ClientErrorDto>[] = [
    {
      title: t('logs:time'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 170,
      sorter: true,
      sortOrder: table.sortOrderOf('createdAt'),
      render: (v: string) => parseTime(v),
    },
    {
      title: t('clienterrors:kind'),
      dataIndex: 'kind',
      key: 'kind',
      width: 150,
      phone: true,
      render: (v: string) => <Tag color={KIND_COLORS[v] ?? 'default'}>{t(`clienterrors:kinds.${v}`, { defaultValue: v })}</Tag>,
    },
    {
      title: t('clienterrors:message'),
      dataIndex: 'message',
      key: 'message',
      width: 360,
      phone: true,
      render: (v: string) => (
        <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 340 }}>
          {v}
        </Typography.Text>
      ),
    },
    { title: t('clienterrors:route'), dataIndex: 'route', key: 'route', width: 180 },
    { title: t('clienterrors:version'), dataIndex: 'version', key: 'version', width: 140 },
    {
      title: t('logs:userAgent'),
      dataIndex: 'userAgent',
      key: 'userAgent',
      width: 260,
      render: (v: string) => (
        <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 240 }}>
          {v}
        </Typography.Text>
      ),
    },
  ];

  return (
    <Card data-testid="page-clienterrors">
      <FilterBar<FilterValues>
        onSearch={(v) => table.search(withTimeRange(v))}
        values={rangeValues(table.filters)}
        extra={
          <Button onClick={() => void doExport()} loading={exporting} data-testid="clienterrors-export">
            {t('clienterrors:export')}
          </Button>
        }
      >
        <Form.Item name="q">
          <Input placeholder={t('clienterrors:message')} aria-label={t('clienterrors:message')} allowClear style={{ width: 200 }} data-testid="filter-q" />
        </Form.Item>
        <Form.Item name="kind">
          <Select
            allowClear
            placeholder={t('clienterrors:kind')}
            aria-label={t('clienterrors:kind')}
            style={{ width: 170 }}
            options={CLIENT_ERROR_KINDS.map((k) => ({ value: k, label: t(`clienterrors:kinds.${k}`) }))}
            data-testid="filter-kind"
          />
        </Form.Item>
        <Form.Item name="route">
          <Input placeholder={t('clienterrors:route')} aria-label={t('clienterrors:route')} allowClear style={{ width: 160 }} data-testid="filter-route" />
        </Form.Item>
        <Form.Item name="version">
          <Input placeholder={t('clienterrors:version')} aria-label={t('clienterrors:version')} allowClear style={{ width: 140 }} data-testid="filter-version" />
        </Form.Item>
        <Form.Item name="range">
          <DatePicker.RangePicker />
        </Form.Item>
      </FilterBar>
      <DataTable<ClientErrorDto>
        tableId="client-errors"
        columns={columns}
        expandable={{
          rowExpandable: (r) => r.stack !== '',
          expandedRowRender: (r) => (
            <pre style={{ margin: 0, whiteSpace: 'pre-wrap', fontSize: 12 }} data-testid="clienterror-stack">
              {r.stack}
            </pre>
          ),
        }}
        data-testid="table-clienterrors"
        {...table.tableProps(data, isFetching)}
      />
    </Card>
  );
}
