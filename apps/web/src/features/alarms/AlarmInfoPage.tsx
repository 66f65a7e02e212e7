import { useMemo, useState } from 'react';
import { Button, Card, DatePicker, Form, Input, Modal, Radio, Select, Space, Statistic, Tag, Typography } from 'antd';
import { CheckOutlined, DownloadOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ALARM_NOTE_MAX, ALARM_STATES } from '@iot/contract/plain';
import type { AlarmDto } from '@iot/contract';
import { selectionTitle } from '../../components/SelectionTitle';
import { currentLanguage } from '../../lib/i18n';
import { localName } from '../../lib/localize';
import { usePermission } from '../../lib/session';
import { FilterBar } from '../../components/FilterBar';
import { expandButton } from '../../components/ExpandButton';
import { DataTable, type DataColumn } from '../../components/DataTable';
import type { FilterSpec } from '../../lib/use-list-params';
import { rangeValues } from '../../lib/time-range';
import { feedbackMessage } from '../../lib/feedback';
import { parseTime } from '../../lib/format';
import { useServerTable } from '../../lib/use-server-table';
import {
  exportAlarms,
  useAlarmGroups,
  useAlarmList,
  useProcessAlarms,
  useProjectOptions,
  useTypeOptions,
  type AlarmFilters,
} from './api';
import { AlarmLevelLegend, AlarmLevelTag, alarmLevelLabel, alarmLevelOptions } from '../../components/AlarmLevel';
import { alarmName, alarmText } from './labels';
import { AlarmNotices } from './AlarmNotices';

type RangeValue = [Dayjs | null, Dayjs | null] | null | undefined;
type FilterValues = Omit<AlarmFilters, 'from' | 'to'> & { range?: RangeValue };

const STATE_COLORS: Record<string, string> = { untreated: 'error', processed: 'success', ignored: 'default' };

/** The alarm list's filters as its address spells them (`?deviceId=` and `?alarmId=` are the page's). */
const ALARM_FILTERS: FilterSpec<AlarmFilters> = {
  projectId: 'number',
  typeId: 'number',
  device: 'string',
  level: 'number',
  state: 'string',
  activity: 'string',
  from: 'string',
  to: 'string',
};

/** The device details page of a device (a route: features never import each other). */
const devicePage = (id: number) => `/project/info?id=${id}`;

/** The form's filters plus the ones the address (or the details page) fixes. */
function toFilters(v: FilterValues, fixed: { deviceId?: number; alarmId?: number }): AlarmFilters {
  const { range, ...rest } = v;
  const [start, end] = range ?? [null, null];
  return {
    ...rest,
    ...(fixed.deviceId ? { deviceId: fixed.deviceId } : {}),
    ...(fixed.alarmId ? { alarmId: fixed.alarmId } : {}),
    ...(start ? { from: start.startOf('day').toISOString() } : {}),
    ...(end ? { to: end.endOf('day').toISOString() } : {}),
  };
}

/**
 * §2 /project/alarminfo: historical alarms, filtered, sorted and paged on the server; processing and
 * export. `?deviceId=` shows one device's alarms, `?alarmId=` one alarm (the bell's, the
 * notification's and the alarm e-mail's link). With the `deviceId` prop it is the device details
 * page's Alarms tab: that device's alarms only.
 */
export default function AlarmInfoPage({ deviceId: fixedDeviceId }: { deviceId?: number } = {}) {
  const [search, setSearch] = useSearchParams();
  const deviceId = fixedDeviceId ?? (Number(search.get('deviceId')) || undefined);
  const alarmId = fixedDeviceId ? undefined : Number(search.get('alarmId')) || undefined;
  const showAll = () =>
    setSearch((s) => {
      const next = new URLSearchParams(s);
      next.delete('alarmId');
      return next;
    });
  // A new address (another alarm of the bell while this page is open) starts a fresh list.
  return (
    <AlarmList
      key={`${deviceId ?? ''}:${alarmId ?? ''}`}
      deviceId={deviceId}
      alarmId={alarmId}
      inDetails={fixedDeviceId !== undefined}
      onShowAll={showAll}
    />
  );
}

function AlarmList({
  deviceId,
  alarmId,
  inDetails,
  onShowAll,
}: {
  deviceId?: number;
  alarmId?: number;
  inDetails: boolean;
  onShowAll: () => void;
}) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const canHandle = usePermission('alarm:handle');
  const table = useServerTable<AlarmFilters>({
    sort: 'startedAt',
    order: 'desc',
    url: inDetails ? undefined : ALARM_FILTERS,
    fixed: toFilters({}, { deviceId, alarmId }),
  });
  const filters = table.params as unknown as AlarmFilters & { sort?: 'startedAt'; order?: 'asc' | 'desc' };
  const { data, isFetching } = useAlarmList(table.params as never);
  const groupFilters = useMemo(() => {
    const { page: _p, limit: _l, sort: _s, order: _o, ...rest } = table.params as Record<string, unknown>;
    return rest as AlarmFilters;
  }, [table.params]);
  const { data: groups } = useAlarmGroups(groupFilters);
  const projects = useProjectOptions();
  const types = useTypeOptions();
  const process = useProcessAlarms();
  const [selected, setSelected] = useState<number[]>([]);
  const [dialog, setDialog] = useState<number[] | null>(null);
  const [exporting, setExporting] = useState(false);
  const [form] = Form.useForm<{ state: 'processed' | 'ignored'; note: string }>();

  const submit = async () => {
    const values = await form.validateFields();
    try {
      const r = await process.mutateAsync({ ids: dialog ?? [], state: values.state, note: values.note ?? '' });
      feedbackMessage().success(t('alarms:process.done', { count: r.processed }));
      setDialog(null);
      setSelected([]);
    } catch {
      // reported by the http client
    }
  };

  const doExport = async () => {
    setExporting(true);
    try {
      const { page: _p, limit: _l, ...q } = filters as Record<string, unknown>;
      await exportAlarms(q as never);
    } catch {
      // reported by downloadFile
    } finally {
      setExporting(false);
    }
  };

  // The columns an operator handles an alarm by come first (level, device, what, when, state,
  // processed), sized so that they fit a 1,280 px screen beside the selection and expand columns; the rest are optional (column chooser).
  const columns: DataColumn<AlarmDto>[] = [
    {
      title: t('alarms:columns.level'),
      dataIndex: 'level',
      key: 'level',
      width: 105,
      sorter: true,
      sortOrder: table.sortOrderOf('level'),
      render: (v: number, a) => <AlarmLevelTag level={v} data-testid={`alarm-level-${a.id}`} />,
    },
    {
      title: t('alarms:columns.device'),
      key: 'device',
      width: 140,
      phone: true,
      sorter: true,
      sortOrder: table.sortOrderOf('device'),
      render: (_, a) => (
        <span>
          <Typography.Text ellipsis={{ tooltip: a.deviceName }} style={{ maxWidth: 120, display: 'block' }}>
            {inDetails ? (
              a.deviceName
            ) : (
              <Link to={devicePage(a.deviceId)} data-testid={`alarm-device-${a.id}`}>
                {a.deviceName}
              </Link>
            )}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>{a.sn}</Typography.Text>
        </span>
      ),
    },
    {
      title: t('alarms:columns.alarm'),
      key: 'alarm',
      width: 155,
      phone: true,
      render: (_, a) => (
        <span data-testid="alarm-text">
          <Typography.Text ellipsis={{ tooltip: alarmText(a) }} style={{ maxWidth: 135, display: 'block' }}>
            {alarmText(a)}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ maxWidth: 135, display: 'block', fontSize: 12 }} ellipsis={{ tooltip: true }}>
            {alarmName(a)} ({a.semaphoreId}) · {t(`alarms:sources.${a.source}`)}
          </Typography.Text>
        </span>
      ),
    },
    {
      title: t('alarms:columns.startedAt'),
      dataIndex: 'startedAt',
      key: 'startedAt',
      width: 145,
      phone: true,
      sorter: true,
      sortOrder: table.sortOrderOf('startedAt'),
      render: (v: string) => parseTime(v),
    },
    {
      title: t('alarms:columns.state'),
      dataIndex: 'state',
      key: 'state',
      width: 125,
      phone: true,
      render: (v: string, a) => (
        <span>
          <Tag color={STATE_COLORS[v]} data-testid={`alarm-state-${a.id}`}>{t(`alarms:states.${v}`)}</Tag>
          {a.note && (
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, maxWidth: 105 }} ellipsis={{ tooltip: a.note }}>
              {a.note}
            </Typography.Text>
          )}
        </span>
      ),
    },
    {
      title: t('alarms:columns.processedAt'),
      dataIndex: 'processedAt',
      key: 'processedAt',
      width: 140,
      sorter: true,
      sortOrder: table.sortOrderOf('processedAt'),
      render: (v: string | null, a) => (v ? `${parseTime(v)} · ${a.processedBy ?? ''}` : '—'),
    },
    { title: t('alarms:columns.value'), dataIndex: 'value', key: 'value', width: 100, optional: true },
    {
      title: t('alarms:columns.endedAt'),
      dataIndex: 'endedAt',
      key: 'endedAt',
      width: 150,
      optional: true,
      sorter: true,
      sortOrder: table.sortOrderOf('endedAt'),
      render: (v: string | null) => (v ? parseTime(v) : <Tag color="red">{t('alarms:activity.active')}</Tag>),
    },
    { title: t('alarms:columns.project'), dataIndex: 'projectName', key: 'projectName', width: 140, optional: true, render: (v: string | null) => v ?? '—' },
    ...(canHandle
      ? [
          {
            title: t('alarms:columns.actions'),
            key: 'actions',
            width: 90,
            fixed: 'end' as const,
            render: (_: unknown, a: AlarmDto) =>
              a.state === 'untreated' ? (
                <Button size="small" type="link" onClick={() => setDialog([a.id])} data-testid={`alarm-process-${a.id}`}>
                  {t('alarms:process.one')}
                </Button>
              ) : null,
          },
        ]
      : []),
  ];

  const byState = Object.fromEntries((groups?.byState ?? []).map((g) => [g.state, g.count]));
  return (
    <Card data-testid="page-alarms">
      <Space size={32} wrap style={{ marginBottom: 16 }} data-testid="alarm-summary">
        <Statistic title={t('alarms:summary.total')} value={groups?.total ?? 0} />
        <Statistic title={t('alarms:summary.active')} value={groups?.active ?? 0} />
        <Statistic title={t('alarms:states.untreated')} value={byState.untreated ?? 0} />
        {(groups?.byLevel ?? []).map((g) => (
          <Statistic key={g.level} title={alarmLevelLabel(t, g.level)} value={g.count} />
        ))}
      </Space>
      <FilterBar<FilterValues>
        onSearch={(v) => table.search(toFilters(v, {}))}
        values={rangeValues(table.filters)}
        extra={
          <Space wrap>
            {canHandle && (
              <Button
                icon={<CheckOutlined />}
                disabled={selected.length === 0}
                onClick={() => setDialog(selected)}
                data-testid="alarm-process-selected"
              >
                {t('alarms:process.selected', { count: selected.length })}
              </Button>
            )}
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()} data-testid="alarm-export">
              {t('alarms:export')}
            </Button>
          </Space>
        }
      >
        <Form.Item name="projectId">
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('alarms:filters.project')}
            aria-label={t('alarms:filters.project')}
            style={{ width: 170 }}
            loading={projects.isLoading}
            options={(projects.data?.items ?? []).map((p) => ({ value: p.id, label: p.name }))}
            data-testid="alarm-filter-project"
          />
        </Form.Item>
        <Form.Item name="typeId">
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('alarms:filters.type')}
            aria-label={t('alarms:filters.type')}
            style={{ width: 170 }}
            loading={types.isLoading}
            options={(types.data ?? []).map((ty) => ({ value: ty.id, label: localName(ty, lang) }))}
            data-testid="alarm-filter-type"
          />
        </Form.Item>
        <Form.Item name="device">
          <Input allowClear placeholder={t('alarms:filters.device')} aria-label={t('alarms:filters.device')} style={{ width: 160 }} data-testid="alarm-filter-device" />
        </Form.Item>
        {/* The legend beside the filter, not in the Level header: antd copies headers into an
            aria-hidden measuring row, where a focusable button is an axe violation. */}
        <Form.Item>
          <Space size={4}>
            <Form.Item name="level" noStyle>
              <Select
                allowClear
                placeholder={t('alarms:filters.level')}
                aria-label={t('alarms:filters.level')}
                style={{ width: 150 }}
                options={alarmLevelOptions(t)}
                data-testid="alarm-filter-level"
              />
            </Form.Item>
            <AlarmLevelLegend />
          </Space>
        </Form.Item>
        <Form.Item name="state">
          <Select
            allowClear
            placeholder={t('alarms:filters.state')}
            aria-label={t('alarms:filters.state')}
            style={{ width: 170 }}
            options={ALARM_STATES.map((s) => ({ value: s, label: t(`alarms:states.${s}`) }))}
            data-testid="alarm-filter-state"
          />
        </Form.Item>
        <Form.Item name="activity">
          <Select
            allowClear
            placeholder={t('alarms:filters.activity')}
            aria-label={t('alarms:filters.activity')}
            style={{ width: 130 }}
            options={(['active', 'ended'] as const).map((s) => ({ value: s, label: t(`alarms:activity.${s}`) }))}
            data-testid="alarm-filter-activity"
          />
        </Form.Item>
        <Form.Item name="range">
          <DatePicker.RangePicker />
        </Form.Item>
      </FilterBar>
      {deviceId && !inDetails && (
        <Typography.Paragraph type="secondary" data-testid="alarm-device-filter">
          {t('alarms:filters.oneDevice', { id: deviceId })}
        </Typography.Paragraph>
      )}
      {alarmId && (
        <Typography.Paragraph type="secondary" data-testid="alarm-one-filter">
          {t('alarms:filters.oneAlarm', { id: alarmId })}{' '}
          <Typography.Link onClick={onShowAll} data-testid="alarm-show-all">
            {t('alarms:filters.showAll')}
          </Typography.Link>
        </Typography.Paragraph>
      )}
      <DataTable<AlarmDto>
        tableId="alarms"
        restoreScroll={!inDetails}
        rowKey="id"
        size="middle"
        columns={columns}
        data-testid="table-alarms"
        expandable={{
          // The alarm's history: its SMS and calls, read when opened.
          expandedRowRender: (a) => <AlarmNotices alarmId={a.id} />,
          expandIcon: expandButton<AlarmDto>({ expand: t('alarms:notices.expand'), collapse: t('alarms:notices.collapse') }, (a) => `alarm-expand-${a.id}`),
        }}
        rowSelection={
          canHandle
            ? {
                selectedRowKeys: selected,
                columnTitle: selectionTitle,
                onChange: (keys) => setSelected(keys.map(Number)),
                getCheckboxProps: (a) => ({ disabled: a.state !== 'untreated' }),
              }
            : undefined
        }
        {...table.tableProps(data, isFetching)}
      />
      <Modal
        open={dialog !== null}
        title={t('alarms:process.title', { count: dialog?.length ?? 0 })}
        okText={t('alarms:process.ok')}
        cancelText={t('alarms:process.cancel')}
        confirmLoading={process.isPending}
        onOk={() => void submit()}
        onCancel={() => setDialog(null)}
        destroyOnHidden
        afterOpenChange={(open) => open && form.setFieldsValue({ state: 'processed', note: '' })}
      >
        <Form form={form} layout="vertical" initialValues={{ state: 'processed', note: '' }} preserve={false}>
          <Form.Item name="state" label={t('alarms:process.state')}>
            <Radio.Group
              options={[
                { value: 'processed', label: t('alarms:states.processed') },
                { value: 'ignored', label: t('alarms:states.ignored') },
              ]}
              data-testid="alarm-process-state"
            />
          </Form.Item>
          <Form.Item name="note" label={t('alarms:process.note')} rules={[{ max: ALARM_NOTE_MAX, message: t('alarms:process.noteTooLong', { max: ALARM_NOTE_MAX }) }]}>
            <Input.TextArea rows={3} maxLength={ALARM_NOTE_MAX} showCount data-testid="alarm-process-note" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
