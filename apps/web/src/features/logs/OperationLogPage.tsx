import { Card, DatePicker, Descriptions, Form, Input, Select, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS, AUDIT_ENTITIES, auditEntityOf } from '@iot/contract/plain';
import type { OperationLogDto } from '@iot/contract';
import { FilterBar } from '../../components/FilterBar';
import { expandButton } from '../../components/ExpandButton';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { parseTime } from '../../lib/format';
import { useServerTable } from '../../lib/use-server-table';
import { useOperationLogs, type OperationLogFilters } from './api';
import { actionLabel, entityLabel, logRoleLabel, parseSummary, readableSummary } from './summary';
import { rangeValues, withTimeRange, type RangeValue } from '../../lib/time-range';

type FilterValues = Omit<OperationLogFilters, 'from' | 'to'> & { range?: RangeValue };

/** The summary's JSON laid out for reading; anything else as it is. React escapes both. */
function rawSummary(summary: string): string {
  const fields = parseSummary(summary);
  return fields ? JSON.stringify(fields, null, 2) : summary;
}

/** The stored row behind the words: action code, role identification, ids and the JSON. */
function RawRecord({ log }: { log: OperationLogDto }) {
  const { t } = useTranslation();
  const none = t('logs:raw.none');
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      title={t('logs:raw.title')}
      data-testid={`log-raw-${log.id}`}
      styles={{ label: { width: 180 } }}
    >
      <Descriptions.Item label={t('logs:raw.action')}>
        <Typography.Text code>{log.action}</Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={t('logs:raw.role')}>
        <Typography.Text code>{log.role}</Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={t('logs:raw.entityId')}>{log.entityId || none}</Descriptions.Item>
      <Descriptions.Item label={t('logs:raw.entityName')}>{log.entityName || none}</Descriptions.Item>
      <Descriptions.Item label={t('logs:userAgent')}>{log.userAgent || none}</Descriptions.Item>
      <Descriptions.Item label={t('logs:raw.summary')}>
        <pre style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 12 }}>
          {log.summary ? rawSummary(log.summary) : none}
        </pre>
      </Descriptions.Item>
    </Descriptions>
  );
}

/** §2 /sys/logs: who changed what, when, from where, and whether it was allowed. */
export default function OperationLogPage() {
  const { t } = useTranslation();
  const table = useServerTable<OperationLogFilters>({
    order: 'desc',
    url: { username: 'string', action: 'string', entity: 'string', result: 'string', from: 'string', to: 'string' },
  });
  const { data, isFetching } = useOperationLogs(table.params);

  // The actions by object kind, named in the UI language; typing matches the name or the code.
  const actionOptions = AUDIT_ENTITIES.map((entity) => ({
    label: entityLabel(entity),
    options: AUDIT_ACTIONS.filter((a) => auditEntityOf(a) === entity).map((a) => ({ value: a, label: actionLabel(a) })),
  }));

  const columns: DataColumn<OperationLogDto>[] = [
    {
      title: t('logs:time'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 160,
      sorter: true,
      sortOrder: table.sortOrderOf('createdAt'),
      render: (v: string) => parseTime(v),
    },
    {
      // Who: the user, and under it the role they acted in (its identification is in the raw record).
      title: t('logs:user'),
      dataIndex: 'username',
      key: 'username',
      width: 160,
      phone: true,
      render: (v: string, log) => {
        const role = logRoleLabel(log);
        return (
          <span>
            <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 144, display: 'block' }}>
              {v}
            </Typography.Text>
            <Typography.Text type="secondary" ellipsis={{ tooltip: role }} style={{ maxWidth: 144, display: 'block', fontSize: 12 }} data-testid="log-role">
              {role}
            </Typography.Text>
          </span>
        );
      },
    },
    {
      title: t('logs:action'),
      dataIndex: 'action',
      key: 'action',
      width: 170,
      phone: true,
      render: (v: string) => <span data-testid="log-action">{actionLabel(v)}</span>,
    },
    {
      // The object (kind and name) leads the summary; its id is in the raw record. The column
      // takes the room the others leave.
      title: t('logs:summary'),
      dataIndex: 'summary',
      key: 'summary',
      width: 260,
      phone: true,
      // Two lines, cut by the paragraph; the whole summary in the tooltip.
      ellipsis: false,
      render: (_, log) => {
        const { short, full } = readableSummary(log);
        return (
          <Tooltip
            title={full === short ? undefined : <span style={{ wordBreak: 'break-word' }}>{full}</span>}
            placement="topLeft"
          >
            <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ margin: 0 }} data-testid="log-summary">
              {short}
            </Typography.Paragraph>
          </Tooltip>
        );
      },
    },
    { title: t('logs:address'), dataIndex: 'ip', key: 'ip', width: 130, optional: true },
    {
      title: t('logs:result'),
      dataIndex: 'result',
      key: 'result',
      width: 100,
      phone: true,
      render: (v: string) => (
        <Tag color={v === 'success' ? 'success' : 'error'}>{t(`logs:results.${v}`, { defaultValue: v })}</Tag>
      ),
    },
  ];

  return (
    <Card data-testid="page-logs">
      <FilterBar<FilterValues> onSearch={(v) => table.search(withTimeRange(v))} values={rangeValues(table.filters)}>
        <Form.Item name="username">
          <Input placeholder={t('logs:user')} aria-label={t('logs:user')} allowClear style={{ width: 150 }} data-testid="filter-username" />
        </Form.Item>
        <Form.Item name="action">
          <Select
            allowClear
            showSearch={{
              filterOption: (input, option) => {
                const needle = input.trim().toLowerCase();
                const { label, value } = (option ?? {}) as { label?: unknown; value?: unknown };
                return [label, value].some((s) => typeof s === 'string' && s.toLowerCase().includes(needle));
              },
            }}
            placeholder={t('logs:actionFilter')}
            aria-label={t('logs:actionFilter')}
            style={{ width: 220 }}
            popupMatchSelectWidth={false}
            options={actionOptions}
            data-testid="filter-action"
          />
        </Form.Item>
        <Form.Item name="entity">
          <Select
            allowClear
            placeholder={t('logs:entity')}
            aria-label={t('logs:entity')}
            style={{ width: 150 }}
            options={AUDIT_ENTITIES.map((e) => ({ value: e, label: entityLabel(e) }))}
            data-testid="filter-entity"
          />
        </Form.Item>
        <Form.Item name="result">
          <Select
            allowClear
            placeholder={t('logs:result')}
            aria-label={t('logs:result')}
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
      <DataTable<OperationLogDto>
        tableId="operation-logs"
        columns={columns}
        data-testid="table-logs"
        expandable={{
          expandedRowRender: (log) => <RawRecord log={log} />,
          expandIcon: expandButton<OperationLogDto>({ expand: t('logs:expand'), collapse: t('logs:collapse') }, (log) => `log-expand-${log.id}`),
        }}
        {...table.tableProps(data, isFetching)}
      />
    </Card>
  );
}
