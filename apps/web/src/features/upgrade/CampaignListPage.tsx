import { useState, type HTMLAttributes } from 'react';
import { Card, Form, Input, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CAMPAIGN_STATES } from '@iot/contract/plain';
import type { CampaignDto } from '@iot/contract';
import { parseTime } from '../../lib/format';
import { feedbackMessage } from '../../lib/feedback';
import { useServerTable } from '../../lib/use-server-table';
import type { FilterSpec } from '../../lib/use-list-params';
import { AddButton, ConfirmLink, RowLink } from '../../components/ListActions';
import { FilterBar } from '../../components/FilterBar';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { useCampaignList, useCloseCampaign, type CampaignListParams, type CampaignSort } from './campaigns-api';
import { CampaignCounts, CampaignStateTag, UpgradeProgress } from './CampaignTags';
import { CampaignDrawer } from './CampaignDrawer';
import { CampaignFormModal } from './CampaignFormModal';

type Filters = Pick<CampaignListParams, 'q' | 'state'>;
const FILTERS: FilterSpec<Filters> = { q: 'string', state: 'string' };
/** The campaign whose details are open: in the address, so a reload or a shared link reopens them. */
const CAMPAIGN_PARAM = 'campaign';

/** /upgrade/device (upgrade:device): upgrade campaigns, their progress, and a new one. */
export default function CampaignListPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const table = useServerTable<Filters, CampaignSort>({ sort: 'createdAt', order: 'desc', url: FILTERS });
  const list = useCampaignList(table.params);
  const close = useCloseCampaign();
  const [creating, setCreating] = useState(false);
  const opened = Number(params.get(CAMPAIGN_PARAM)) || undefined;

  const open = (id: number | undefined) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (id) next.set(CAMPAIGN_PARAM, String(id));
      else next.delete(CAMPAIGN_PARAM);
      return next;
    });

  const cancel = async (c: CampaignDto) => {
    try {
      await close.mutateAsync({ campaignId: c.id });
      feedbackMessage().success(t('campaigns:cancelled', { id: c.id }));
    } catch {
      // the http client reported the refusal
    }
  };

  const columns: DataColumn<CampaignDto>[] = [
    {
      title: t('campaigns:fields.id'),
      dataIndex: 'id',
      ...table.sortable('id', true),
      width: 90,
      render: (id: number) => (
        <RowLink testId={`campaign-open-${id}`} onClick={() => open(id)}>
          {`#${id}`}
        </RowLink>
      ),
    },
    {
      title: t('campaigns:fields.version'),
      key: 'version',
      width: 190,
      phone: true,
      render: (_, c) => (
        <Space orientation="vertical" size={0}>
          <span>{c.versionName}</span>
          <Typography.Text type="secondary">{c.softwareVersion}</Typography.Text>
        </Space>
      ),
    },
    {
      title: t('campaigns:fields.state'),
      dataIndex: 'state',
      key: 'state',
      width: 100,
      phone: true,
      render: (_, c) => <CampaignStateTag state={c.state} testId={`campaign-state-${c.id}`} />,
    },
    {
      title: t('campaigns:fields.progress'),
      key: 'progress',
      width: 170,
      phone: true,
      render: (_, c) => (
        <UpgradeProgress
          percent={c.progress}
          label={t('campaigns:progressOf', { id: c.id })}
          status={c.state === 'running' ? 'active' : c.counts.failed || c.counts.timedOut ? 'exception' : 'normal'}
          testId={`campaign-progress-${c.id}`}
        />
      ),
    },
    {
      title: t('campaigns:fields.devices'),
      key: 'counts',
      width: 260,
      render: (_, c) => (
        <Space orientation="vertical" size={2}>
          <span>{t('campaigns:total', { count: c.total })}</span>
          <CampaignCounts counts={c.counts} testId={`campaign-counts-${c.id}`} />
        </Space>
      ),
    },
    {
      title: t('campaigns:fields.createdAt'),
      dataIndex: 'createdAt',
      ...table.sortable('createdAt', true),
      width: 185,
      render: (v: string) => parseTime(v),
    },
    { title: t('campaigns:fields.deadline'), dataIndex: 'deadline', key: 'deadline', width: 185, optional: true, render: (v: string) => parseTime(v) },
    {
      title: t('campaigns:fields.settings'),
      key: 'settings',
      width: 200,
      optional: true,
      render: (_, c) => t('campaigns:settingsSummary', { concurrency: c.concurrency, timeout: c.stageTimeoutSec, retries: c.retries }),
    },
    { title: t('campaigns:fields.createdBy'), dataIndex: 'createdByName', key: 'createdByName', width: 130, optional: true, render: (v: string | null) => v ?? t('common:empty') },
    {
      title: t('crud:actions'),
      key: 'actions',
      fixed: 'end',
      width: 170,
      render: (_, c) => (
        <Space size={0}>
          <RowLink testId={`campaign-details-${c.id}`} onClick={() => open(c.id)}>
            {t('campaigns:details')}
          </RowLink>
          {c.state === 'running' && (
            <ConfirmLink
              danger
              testId={`campaign-cancel-${c.id}`}
              title={t('campaigns:cancelConfirm', { id: c.id })}
              description={t('campaigns:cancelConfirmHint')}
              onConfirm={() => cancel(c)}
            >
              {t('campaigns:cancel')}
            </ConfirmLink>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card title={t('campaigns:title')} data-testid="campaign-list-page">
      <FilterBar<Filters>
        onSearch={(f) => table.search(f)}
        values={table.filters}
        extra={
          <AddButton testId="btn-new-campaign" onClick={() => setCreating(true)}>
            {t('campaigns:new')}
          </AddButton>
        }
      >
        <Form.Item name="q">
          <Input allowClear maxLength={64} placeholder={t('campaigns:filters.q')} aria-label={t('campaigns:filters.q')} style={{ width: 260 }} data-testid="filter-q" />
        </Form.Item>
        <Form.Item name="state">
          <Select
            allowClear
            placeholder={t('campaigns:fields.state')}
            aria-label={t('campaigns:fields.state')}
            style={{ width: 150 }}
            data-testid="filter-state"
            options={CAMPAIGN_STATES.map((s) => ({ value: s, label: t(`campaigns:state.${s}`) }))}
          />
        </Form.Item>
      </FilterBar>
      <DataTable<CampaignDto>
        tableId="upgrade-campaigns"
        data-testid="table-campaigns"
        columns={columns}
        onRow={(c) => ({ 'data-testid': `campaign-row-${c.id}` }) as HTMLAttributes<HTMLElement>}
        {...table.tableProps(list.data, list.isLoading || list.isPlaceholderData)}
      />
      <CampaignFormModal
        open={creating}
        onClose={() => setCreating(false)}
        onStarted={(id) => {
          setCreating(false);
          open(id);
        }}
      />
      <CampaignDrawer id={opened} onClose={() => open(undefined)} />
    </Card>
  );
}
