import { useState } from 'react';
import { Button, Card, DatePicker, Form, Input, Popconfirm, Select, Space, Tabs, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { EXTERNAL_OPEN_STATES, EXTERNAL_STATES, type ExternalState } from '@iot/contract/plain';
import type { ExternalAdded, ExternalDeviceDto } from '@iot/contract';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { FilterBar } from '../../../components/FilterBar';
import { FormModal } from '../../../components/FormModal';
import { AddButton, DeleteLink, RowLink } from '../../../components/ListActions';
import { feedbackMessage } from '../../../lib/feedback';
import { parseTime } from '../../../lib/format';
import type { FilterSpec } from '../../../lib/use-list-params';
import { useServerTable } from '../../../lib/use-server-table';
import { AddDevicesModal } from './AddDevicesModal';
import { AssignModal } from './AssignModal';
import { CredentialsModal } from './CredentialsModal';
import { LogsDrawer } from './LogsDrawer';
import { StateTag, UpgradeProgress } from './labels';
import {
  useCancelExternal,
  useDeleteExternal,
  useDeleteExternalLogs,
  useExternalDevices,
  useExternalUpgrades,
  useVersionOptions,
  type ExternalSort,
} from './api';

interface Filters {
  q?: string;
  model?: string;
  version?: string;
  state?: ExternalState;
  versionId?: number;
}
const REGISTRY_FILTERS: FilterSpec<Filters> = { q: 'string', model: 'string', version: 'string', state: 'string' };

const isOpen = (d: ExternalDeviceDto) => EXTERNAL_OPEN_STATES.includes(d.state);
const text = (v: string) => v || '—';

/** Buttons acting on the selected rows: assign, cancel, delete (each asks or opens a form first). */
function useBulk() {
  const [selected, setSelected] = useState<number[]>([]);
  return { selected, setSelected, rowSelection: { selectedRowKeys: selected, onChange: (keys: React.Key[]) => setSelected(keys as number[]) } };
}

/** Deletes the caller's logs older than a day it picks. */
function OldLogsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteExternalLogs();
  return (
    <FormModal<{ before: Dayjs }>
      open={open}
      title={t('external:oldLogsTitle')}
      onCancel={onClose}
      testId="external-oldlogs-modal"
      onSubmit={async (v) => {
        const { count } = await remove.mutateAsync({ before: v.before.startOf('day').toISOString() });
        feedbackMessage().success(t('external:logsDeleted', { count }));
        onClose();
      }}
    >
      <Form.Item name="before" label={t('external:oldLogsBefore')} extra={t('external:oldLogsHint')} rules={[{ required: true, message: t('external:oldLogsRequired') }]}>
        <DatePicker data-testid="external-oldlogs-date" />
      </Form.Item>
    </FormModal>
  );
}

/** The registry (§7 Hardware): add one or in bulk, list with last check-in and version, delete, logs. */
function RegistryTab({ onAssign, onLogs }: { onAssign: (ids: number[]) => void; onLogs: (d: ExternalDeviceDto) => void }) {
  const { t } = useTranslation();
  const table = useServerTable<Filters, ExternalSort>({ sort: 'createdAt', order: 'desc', url: REGISTRY_FILTERS });
  const list = useExternalDevices(table.params);
  const remove = useDeleteExternal();
  const cancel = useCancelExternal();
  const bulk = useBulk();
  const [adding, setAdding] = useState(false);
  const [oldLogs, setOldLogs] = useState(false);
  const [credentials, setCredentials] = useState<ExternalAdded['items'] | null>(null);

  const removeIds = async (ids: number[]) => {
    const { count } = await remove.mutateAsync(ids);
    feedbackMessage().success(t('external:deleted', { count }));
    bulk.setSelected((s) => s.filter((id) => !ids.includes(id)));
  };
  const cancelIds = async (ids: number[]) => {
    const { count } = await cancel.mutateAsync(ids);
    feedbackMessage().success(t('external:cancelled', { count }));
  };

  const columns: DataColumn<ExternalDeviceDto>[] = [
    { title: t('external:fields.identifier'), dataIndex: 'identifier', width: 180, ...table.sortable('identifier', true) },
    { title: t('external:fields.name'), dataIndex: 'name', key: 'name', width: 140, render: text },
    { title: t('external:fields.model'), dataIndex: 'model', key: 'model', width: 110, render: text },
    { title: t('external:fields.version'), dataIndex: 'version', width: 110, phone: true, render: text, ...table.sortable('version', true) },
    {
      title: t('external:fields.lastCheckinAt'),
      dataIndex: 'lastCheckinAt',
      width: 170,
      phone: true,
      render: (v: string | null) => (v ? parseTime(v) : t('external:never')),
      ...table.sortable('lastCheckinAt', true),
    },
    { title: t('external:fields.lastAddress'), dataIndex: 'lastAddress', key: 'lastAddress', width: 130, optional: true },
    { title: t('external:fields.state'), dataIndex: 'state', key: 'state', width: 110, phone: true, render: (s: ExternalState) => <StateTag state={s} /> },
    { title: t('external:fields.createdAt'), dataIndex: 'createdAt', width: 170, optional: true, render: (v: string) => parseTime(v), ...table.sortable('createdAt', true) },
    {
      title: t('crud:actions'),
      key: 'actions',
      fixed: 'end',
      width: 250,
      render: (_, d) => (
        <Space size={0}>
          <RowLink testId={`external-logs-${d.identifier}`} onClick={() => onLogs(d)}>
            {t('external:logs')}
          </RowLink>
          {!isOpen(d) && (
            <RowLink testId={`external-assign-${d.identifier}`} onClick={() => onAssign([d.id])}>
              {t('external:assign')}
            </RowLink>
          )}
          <DeleteLink testId={`external-delete-${d.identifier}`} title={t('external:deleteConfirm', { identifier: d.identifier })} onConfirm={() => removeIds([d.id])} />
        </Space>
      ),
    },
  ];

  const n = bulk.selected.length;
  return (
    <>
      <FilterBar<Filters>
        onSearch={(f) => table.search(f)}
        values={table.filters}
        testId="external-filter"
        extra={
          <>
            <Button disabled={n === 0} onClick={() => onAssign(bulk.selected)} data-testid="external-assign-selected">
              {t('external:assignSelected', { count: n })}
            </Button>
            <Popconfirm
              title={t('external:cancelConfirm', { count: n })}
              disabled={n === 0}
              okText={t('common:confirm')}
              cancelText={t('common:cancel')}
              okButtonProps={{ ...({ 'data-testid': 'confirm-ok' } as Record<string, string>) }}
              onConfirm={() => cancelIds(bulk.selected)}
            >
              <Button disabled={n === 0} data-testid="external-cancel-selected">
                {t('external:cancelSelected', { count: n })}
              </Button>
            </Popconfirm>
            <Popconfirm
              title={t('external:deleteSelectedConfirm', { count: n })}
              disabled={n === 0}
              okText={t('common:confirm')}
              cancelText={t('common:cancel')}
              okButtonProps={{ danger: true, ...({ 'data-testid': 'confirm-ok' } as Record<string, string>) }}
              onConfirm={() => removeIds(bulk.selected)}
            >
              <Button danger disabled={n === 0} data-testid="external-delete-selected">
                {t('external:deleteSelected', { count: n })}
              </Button>
            </Popconfirm>
            <Button onClick={() => setOldLogs(true)} data-testid="external-oldlogs">
              {t('external:oldLogs')}
            </Button>
            <AddButton onClick={() => setAdding(true)}>{t('external:add')}</AddButton>
          </>
        }
      >
        <Form.Item name="q">
          <Input allowClear maxLength={64} placeholder={t('external:filters.q')} aria-label={t('external:filters.q')} style={{ width: 220 }} data-testid="external-filter-q" />
        </Form.Item>
        <Form.Item name="model">
          <Input allowClear maxLength={64} placeholder={t('external:fields.model')} aria-label={t('external:fields.model')} style={{ width: 130 }} />
        </Form.Item>
        <Form.Item name="version">
          <Input allowClear maxLength={64} placeholder={t('external:fields.version')} aria-label={t('external:fields.version')} style={{ width: 130 }} />
        </Form.Item>
        <Form.Item name="state">
          <Select
            allowClear
            placeholder={t('external:fields.state')}
            aria-label={t('external:fields.state')}
            style={{ width: 140 }}
            options={EXTERNAL_STATES.map((s) => ({ value: s, label: t(`external:states.${s}`) }))}
          />
        </Form.Item>
      </FilterBar>
      <DataTable<ExternalDeviceDto>
        tableId="external-devices"
        columns={columns}
        data-testid="table-external"
        rowKey="id"
        rowSelection={bulk.rowSelection}
        {...table.tableProps(list.data, list.isFetching)}
      />
      <AddDevicesModal open={adding} onClose={() => setAdding(false)} onAdded={setCredentials} />
      <CredentialsModal items={credentials} onClose={() => setCredentials(null)} />
      <OldLogsModal open={oldLogs} onClose={() => setOldLogs(false)} />
    </>
  );
}

/** The upgrades (/external/list): each assigned device's state and progress, refreshed while open; cancel. */
function UpgradesTab({ onLogs }: { onLogs: (d: ExternalDeviceDto) => void }) {
  const { t } = useTranslation();
  const table = useServerTable<Filters, ExternalSort>({ sort: 'updatedAt', order: 'desc' });
  const list = useExternalUpgrades(table.params);
  const versions = useVersionOptions(true);
  const cancel = useCancelExternal();
  const bulk = useBulk();
  const cancelIds = async (ids: number[]) => {
    const { count } = await cancel.mutateAsync(ids);
    feedbackMessage().success(t('external:cancelled', { count }));
    bulk.setSelected([]);
  };

  const columns: DataColumn<ExternalDeviceDto>[] = [
    { title: t('external:fields.identifier'), dataIndex: 'identifier', width: 180, ...table.sortable('identifier', true) },
    {
      title: t('external:fields.targetVersion'),
      key: 'target',
      width: 170,
      phone: true,
      render: (_, d) => (
        <span>
          {d.versionName || t('external:versionDeleted')} <Typography.Text type="secondary">{d.targetVersion}</Typography.Text>
        </span>
      ),
    },
    { title: t('external:fields.version'), dataIndex: 'version', key: 'version', width: 110, render: text },
    { title: t('external:fields.state'), dataIndex: 'state', key: 'state', width: 110, phone: true, render: (s: ExternalState) => <StateTag state={s} /> },
    { title: t('external:fields.progress'), key: 'progress', width: 150, phone: true, render: (_, d) => <UpgradeProgress device={d} /> },
    { title: t('external:fields.reason'), dataIndex: 'reason', key: 'reason', width: 180, render: text },
    {
      title: t('external:fields.deadline'),
      dataIndex: 'deadline',
      key: 'deadline',
      width: 170,
      optional: true,
      render: (v: string | null) => (v ? parseTime(v) : '—'),
    },
    {
      title: t('external:fields.updatedAt'),
      dataIndex: 'updatedAt',
      width: 170,
      render: (v: string) => parseTime(v),
      ...table.sortable('updatedAt', true),
    },
    {
      title: t('crud:actions'),
      key: 'actions',
      fixed: 'end',
      width: 170,
      render: (_, d) => (
        <Space size={0}>
          <RowLink testId={`external-upgrade-logs-${d.identifier}`} onClick={() => onLogs(d)}>
            {t('external:logs')}
          </RowLink>
          {isOpen(d) && (
            <Popconfirm
              title={t('external:cancelOneConfirm', { identifier: d.identifier })}
              okText={t('common:confirm')}
              cancelText={t('common:cancel')}
              okButtonProps={{ ...({ 'data-testid': 'confirm-ok' } as Record<string, string>) }}
              onConfirm={() => cancelIds([d.id])}
            >
              <Button type="link" size="small" data-testid={`external-cancel-${d.identifier}`}>
                {t('external:cancel')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  const n = bulk.selected.length;
  return (
    <>
      <FilterBar<Filters>
        onSearch={(f) => table.search(f)}
        values={table.filters}
        testId="external-upgrades-filter"
        extra={
          <Popconfirm
            title={t('external:cancelConfirm', { count: n })}
            disabled={n === 0}
            okText={t('common:confirm')}
            cancelText={t('common:cancel')}
            okButtonProps={{ ...({ 'data-testid': 'confirm-ok' } as Record<string, string>) }}
            onConfirm={() => cancelIds(bulk.selected)}
          >
            <Button disabled={n === 0} data-testid="external-upgrades-cancel-selected">
              {t('external:cancelSelected', { count: n })}
            </Button>
          </Popconfirm>
        }
      >
        <Form.Item name="q">
          <Input allowClear maxLength={64} placeholder={t('external:filters.q')} aria-label={t('external:filters.q')} style={{ width: 220 }} />
        </Form.Item>
        <Form.Item name="state">
          <Select
            allowClear
            placeholder={t('external:fields.state')}
            aria-label={t('external:fields.state')}
            style={{ width: 140 }}
            options={EXTERNAL_STATES.filter((s) => s !== 'none').map((s) => ({ value: s, label: t(`external:states.${s}`) }))}
          />
        </Form.Item>
        <Form.Item name="versionId">
          <Select
            allowClear
            placeholder={t('external:fields.targetVersion')}
            aria-label={t('external:fields.targetVersion')}
            style={{ width: 200 }}
            options={(versions.data ?? []).map((v) => ({ value: v.id, label: `${v.name} · ${v.softwareVersion}` }))}
          />
        </Form.Item>
      </FilterBar>
      <DataTable<ExternalDeviceDto>
        tableId="external-upgrades"
        columns={columns}
        data-testid="table-external-upgrades"
        rowKey="id"
        restoreScroll={false}
        rowSelection={{ ...bulk.rowSelection, getCheckboxProps: (d) => ({ disabled: !isOpen(d) }) }}
        {...table.tableProps(list.data, list.isFetching)}
      />
    </>
  );
}

/**
 * /upgrade/external (upgrade:external): devices outside the registry that check in over HTTP
 * for firmware (docs/PROTOCOL.md, "External devices"). The registry tab adds, lists and deletes
 * them; the upgrades tab follows each assignment to its end (none stays open past its timeout).
 */
export default function ExternalPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState('devices');
  const [assigning, setAssigning] = useState<number[] | null>(null);
  const [logs, setLogs] = useState<{ device: ExternalDeviceDto; upgradeOnly: boolean } | null>(null);
  return (
    <Card data-testid="external-page">
      <Tabs
        activeKey={tab}
        onChange={setTab}
        destroyOnHidden
        items={[
          {
            key: 'devices',
            label: <span data-testid="external-tab-devices">{t('external:tabs.devices')}</span>,
            children: <RegistryTab onAssign={setAssigning} onLogs={(device) => setLogs({ device, upgradeOnly: false })} />,
          },
          {
            key: 'upgrades',
            label: <span data-testid="external-tab-upgrades">{t('external:tabs.upgrades')}</span>,
            children: <UpgradesTab onLogs={(device) => setLogs({ device, upgradeOnly: true })} />,
          },
        ]}
      />
      <AssignModal ids={assigning} onClose={() => setAssigning(null)} />
      <LogsDrawer device={logs?.device ?? null} upgradeOnly={logs?.upgradeOnly ?? false} onClose={() => setLogs(null)} />
    </Card>
  );
}
