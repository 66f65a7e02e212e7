import { useEffect, useRef, useState, type HTMLAttributes } from 'react';
import { Button, Descriptions, Drawer, Empty, Form, Input, Popconfirm, Select, Space, Spin, Table, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { UPGRADE_TARGET_STATES, consoleReason } from '@iot/contract/plain';
import type { CampaignDto, UpgradeLogDto, UpgradeTargetDto } from '@iot/contract';
import { parseTime } from '../../lib/format';
import { feedbackMessage } from '../../lib/feedback';
import { campaignKeys } from '../../lib/query-keys';
import { useServerTable } from '../../lib/use-server-table';
import { FilterBar } from '../../components/FilterBar';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { selectionTitle } from '../../components/SelectionTitle';
import { useCampaign, useCampaignTargets, useCloseCampaign, useTargetLog, type TargetListParams, type TargetSort } from './campaigns-api';
import { isFinal } from './campaign-rules';
import { CampaignCounts, CampaignStateTag, TargetStateTag, UpgradeProgress } from './CampaignTags';

type Filters = Pick<TargetListParams, 'state' | 'q'>;

/** One device's steps in the campaign (GET /upgrade/loglist), newest first. */
function TargetLog({ target, live }: { target: UpgradeTargetDto; live: boolean }) {
  const { t } = useTranslation();
  const log = useTargetLog(target.campaignId, target.deviceId, live && !isFinal(target.state));
  return (
    <Table<UpgradeLogDto>
      size="small"
      rowKey="id"
      loading={log.isLoading}
      dataSource={log.data?.items ?? []}
      pagination={false}
      data-testid={`target-log-${target.deviceId}`}
      locale={{ emptyText: t('campaigns:log.empty') }}
      columns={[
        { title: t('campaigns:log.at'), dataIndex: 'at', key: 'at', width: 170, render: (v: string) => parseTime(v) },
        { title: t('campaigns:fields.state'), dataIndex: 'state', key: 'state', width: 130, render: (_, l) => <TargetStateTag state={l.state} /> },
        { title: t('campaigns:fields.attempt'), dataIndex: 'attempt', key: 'attempt', width: 80 },
        { title: t('campaigns:fields.progress'), dataIndex: 'progress', key: 'progress', width: 90, render: (v: number | null) => (v === null ? t('common:empty') : `${v}%`) },
        { title: t('campaigns:log.message'), dataIndex: 'message', key: 'message', render: (v: string | null) => reasonText(t, v) },
      ]}
    />
  );
}

function CampaignSummary({ c }: { c: CampaignDto }) {
  const { t } = useTranslation();
  return (
    <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered data-testid="campaign-summary">
      <Descriptions.Item label={t('campaigns:fields.version')}>
        {c.versionName} <Typography.Text type="secondary">{c.softwareVersion}</Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={t('campaigns:fields.state')}>
        <CampaignStateTag state={c.state} testId="campaign-drawer-state" />
      </Descriptions.Item>
      <Descriptions.Item label={t('campaigns:fields.progress')} span={2}>
        <UpgradeProgress
          percent={c.progress}
          label={t('campaigns:progressOf', { id: c.id })}
          status={c.state === 'running' ? 'active' : 'normal'}
          testId="campaign-drawer-progress"
        />
      </Descriptions.Item>
      <Descriptions.Item label={t('campaigns:fields.devices')} span={2}>
        <Space wrap>
          <span>{t('campaigns:total', { count: c.total })}</span>
          <CampaignCounts counts={c.counts} testId="campaign-drawer-counts" />
        </Space>
      </Descriptions.Item>
      <Descriptions.Item label={t('campaigns:form.concurrency')}>{c.concurrency}</Descriptions.Item>
      <Descriptions.Item label={t('campaigns:form.stageTimeout')}>{c.stageTimeoutSec}</Descriptions.Item>
      <Descriptions.Item label={t('campaigns:form.retries')}>{c.retries}</Descriptions.Item>
      <Descriptions.Item label={t('campaigns:fields.deadline')}>{parseTime(c.deadline)}</Descriptions.Item>
      <Descriptions.Item label={t('campaigns:fields.createdAt')}>{parseTime(c.createdAt)}</Descriptions.Item>
      <Descriptions.Item label={t('campaigns:fields.endedAt')}>{c.endedAt ? parseTime(c.endedAt) : t('common:empty')}</Descriptions.Item>
      <Descriptions.Item label={t('campaigns:fields.createdBy')}>{c.createdByName ?? t('common:empty')}</Descriptions.Item>
    </Descriptions>
  );
}

/** A reason or log message in the reader's language when the console wrote it; a device's own words as they came. */
function reasonText(t: TFunction, text: string | null): string {
  if (text === null) return t('common:empty');
  const r = consoleReason(text);
  if (!r) return text;
  const value = r.key === 'stageTimeout' || r.key === 'stageTimeoutRetry' ? t(`campaigns:targetState.${r.value}`) : r.value;
  return t(`campaigns:reasons.${r.key}`, { value });
}

/** The campaign's header, its devices (state, percent, attempt, reason) with their logs, and cancelling. */
function CampaignDetails({ id }: { id: number }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const campaign = useCampaign(id);
  const c = campaign.data;
  const running = c?.state === 'running';
  const table = useServerTable<Filters, TargetSort>({ sort: 'id', order: 'asc' });
  const targets = useCampaignTargets(id, table.params, running);
  const close = useCloseCampaign();
  const [selected, setSelected] = useState<number[]>([]);

  // The devices' last refetch may predate the campaign's end: read them once more when it ends.
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) void qc.invalidateQueries({ queryKey: campaignKeys.of(id) });
    wasRunning.current = running;
  }, [running, id, qc]);

  const cancel = async (deviceIds?: number[]) => {
    try {
      await close.mutateAsync({ campaignId: id, ...(deviceIds ? { deviceIds } : {}) });
      feedbackMessage().success(deviceIds ? t('campaigns:devicesCancelled', { count: deviceIds.length }) : t('campaigns:cancelled', { id }));
      setSelected([]);
    } catch {
      // the http client reported the refusal
    }
  };

  if (campaign.isLoading) return <Spin />;
  if (!c) return <Empty description={t('campaigns:notFound')} data-testid="campaign-not-found" />;

  const columns: DataColumn<UpgradeTargetDto>[] = [
    {
      title: t('campaigns:fields.device'),
      ...table.sortable('id', true),
      width: 190,
      render: (_, d) => (
        <Space orientation="vertical" size={0}>
          <span>{d.deviceName}</span>
          <Typography.Text type="secondary">
            {d.sn} · {t(d.online ? 'campaigns:online' : 'campaigns:offline')}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('campaigns:fields.state'),
      dataIndex: 'state',
      ...table.sortable('state', true),
      width: 120,
      phone: true,
      render: (_, d) => <TargetStateTag state={d.state} testId={`target-state-${d.deviceId}`} />,
    },
    {
      title: t('campaigns:fields.progress'),
      dataIndex: 'progress',
      ...table.sortable('progress', true),
      width: 170,
      phone: true,
      render: (_, d) => (
        <UpgradeProgress
          percent={d.progress}
          label={t('campaigns:deviceProgress', { name: d.deviceName })}
          status={d.state === 'succeeded' ? 'success' : d.state === 'failed' || d.state === 'timedOut' ? 'exception' : isFinal(d.state) ? 'normal' : 'active'}
          testId={`target-progress-${d.deviceId}`}
        />
      ),
    },
    { title: t('campaigns:fields.attempt'), dataIndex: 'attempt', key: 'attempt', width: 80 },
    { title: t('campaigns:fields.reason'), dataIndex: 'reason', key: 'reason', width: 180, phone: true, render: (v: string | null) => reasonText(t, v) },
    {
      title: t('campaigns:fields.versions'),
      key: 'versions',
      width: 170,
      optional: true,
      render: (_, d) => t('campaigns:fromTo', { from: d.fromVersion ?? t('common:empty'), to: d.toVersion ?? t('common:empty') }),
    },
    {
      title: t('campaigns:fields.updatedAt'),
      dataIndex: 'updatedAt',
      ...table.sortable('updatedAt', true),
      width: 170,
      optional: true,
      render: (v: string) => parseTime(v),
    },
  ];

  const cancellable = selected.length > 0 && running;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <CampaignSummary c={c} />
      <FilterBar<Filters>
        testId="target-filter-bar"
        onSearch={(f) => table.search(f)}
        values={table.filters}
        extra={
          running && (
            <Space wrap>
              <Popconfirm
                title={t('campaigns:cancelSelectedConfirm', { count: selected.length })}
                okText={t('common:confirm')}
                cancelText={t('common:cancel')}
                okButtonProps={{ danger: true, ...({ 'data-testid': 'confirm-ok' } as Record<string, string>) }}
                onConfirm={() => cancel(selected)}
                disabled={!cancellable}
              >
                <Button danger disabled={!cancellable} data-testid="btn-cancel-selected">
                  {selected.length > 0 ? t('campaigns:cancelSelected', { count: selected.length }) : t('campaigns:cancelSelectedNone')}
                </Button>
              </Popconfirm>
              <Popconfirm
                title={t('campaigns:cancelConfirm', { id })}
                description={t('campaigns:cancelConfirmHint')}
                okText={t('common:confirm')}
                cancelText={t('common:cancel')}
                okButtonProps={{ danger: true, ...({ 'data-testid': 'confirm-ok' } as Record<string, string>) }}
                onConfirm={() => cancel()}
              >
                <Button danger type="primary" data-testid="btn-cancel-campaign">
                  {t('campaigns:cancelCampaign')}
                </Button>
              </Popconfirm>
            </Space>
          )
        }
      >
        <Form.Item name="q">
          <Input allowClear maxLength={64} placeholder={t('campaigns:filters.device')} aria-label={t('campaigns:filters.device')} style={{ width: 200 }} data-testid="target-filter-q" />
        </Form.Item>
        <Form.Item name="state">
          <Select
            allowClear
            placeholder={t('campaigns:fields.state')}
            aria-label={t('campaigns:fields.state')}
            style={{ width: 150 }}
            data-testid="target-filter-state"
            options={UPGRADE_TARGET_STATES.map((s) => ({ value: s, label: t(`campaigns:targetState.${s}`) }))}
          />
        </Form.Item>
      </FilterBar>
      <DataTable<UpgradeTargetDto>
        tableId="upgrade-targets"
        data-testid="table-targets"
        restoreScroll={false}
        columns={columns}
        {...table.tableProps(targets.data, targets.isLoading || targets.isPlaceholderData)}
        rowKey="deviceId"
        onRow={(d) => ({ 'data-testid': `target-row-${d.deviceId}` }) as HTMLAttributes<HTMLElement>}
        rowSelection={
          running
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys as number[]),
                getCheckboxProps: (d) => ({ disabled: isFinal(d.state), 'aria-label': t('campaigns:selectDevice', { name: d.deviceName }) }),
                columnTitle: selectionTitle,
              }
            : undefined
        }
        expandable={{ expandedRowRender: (d) => <TargetLog target={d} live={running} />, columnWidth: 48 }}
      />
    </Space>
  );
}

/** A campaign's details, opened by the id in the list's address (`?campaign=`). */
export function CampaignDrawer({ id, onClose }: { id: number | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer
      open={id !== undefined}
      onClose={onClose}
      size={1000}
      title={id ? t('campaigns:number', { id }) : t('campaigns:details')}
      destroyOnHidden
      data-testid="campaign-drawer"
    >
      {id !== undefined && <CampaignDetails key={id} id={id} />}
    </Drawer>
  );
}
