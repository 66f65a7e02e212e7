import { useMemo, useState } from 'react';
import { App, Button, Input, Select, Space, Table, Typography } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import {
  DeleteOutlined,
  DownloadOutlined,
  PlusOutlined,
  ReloadOutlined,
  SwapOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { deviceApi, type DeviceDto } from '@iot/contract';
import { usePermission } from '../../app/session';
import { feedbackMessage } from '../../lib/feedback';
import { currentLanguage } from '../../lib/i18n';
import {
  useDeleteDevices,
  useDeviceList,
  useInvalidateDevices,
  useRegenerateSecret,
  type DeviceCredential,
  type DeviceFilters,
  type DeviceSort,
} from './api';
import { deviceColumns } from './columns';
import { DeviceDrawer } from './DeviceDrawer';
import { ImportDialog } from './ImportDialog';
import { MoveDevicesModal } from './MoveDevicesModal';
import { ProjectSelect, TypeSelect } from './pickers';
import { SecretModal } from './SecretModal';
import { SubDevices } from './SubDevices';
import { actionsColumn } from '../../components/RowActions';
import { useIsMobile } from '../../lib/use-mobile';
import { useLiveDevices } from '../../lib/use-live-devices';
import { useRepeatSearch } from '../../lib/use-repeat-search';
import { downloadFile } from './transfer';

interface Props {
  /** Show only this project's devices (project details); the project filter is hidden. */
  fixedProjectId?: number;
  fixedProjectName?: string;
  /** Start with this project filter (the list opened with ?projectId=). */
  initialProjectId?: number;
  initialProjectName?: string;
  /** Called by Reset after the filters are cleared (the page drops ?projectId=). */
  onReset?: () => void;
}

type OnlineFilter = 'all' | 'online' | 'offline';
/** The `online` filter of the list and export queries. */
const ONLINE_QUERY = { all: undefined, online: 'true', offline: 'false' } as const;

/**
 * The device list: server-side filters, paging and sorting; add/edit in a drawer; bulk move and
 * delete of the selected rows; import, export and the ingestion secret shown once.
 */
export function DeviceTable({ fixedProjectId, fixedProjectName, initialProjectId, initialProjectName, onReset }: Props) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const canAdd = usePermission('device:add');
  const canEdit = usePermission('device:edit');
  const canDelete = usePermission('device:delete');
  const canImport = usePermission('device:import');
  const mobile = useIsMobile();
  const repeat = useRepeatSearch('');

  const [projectId, setProjectId] = useState<number | undefined>(fixedProjectId ?? initialProjectId);
  const [projectName, setProjectName] = useState<string | undefined>(fixedProjectName ?? initialProjectName);
  const [typeId, setTypeId] = useState<number | undefined>();
  const [online, setOnline] = useState<OnlineFilter>('all');
  const [warningLevel, setWarningLevel] = useState<number | undefined>();
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(20);
  const [sort, setSort] = useState<{ field: DeviceSort; order: 'asc' | 'desc' }>({ field: 'createdAt', order: 'desc' });
  const [selected, setSelected] = useState<number[]>([]);
  const [drawer, setDrawer] = useState<{ open: boolean; device: DeviceDto | null }>({ open: false, device: null });
  const [secret, setSecret] = useState<{ credential: DeviceCredential; reason: 'created' | 'regenerated' } | null>(null);
  const [moveOpen, setMoveOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [exporting, setExporting] = useState(false);

  const filters: DeviceFilters = {
    projectId: fixedProjectId ?? projectId,
    typeId,
    online: ONLINE_QUERY[online],
    warningLevel,
    q: q || undefined,
  };
  const list = useDeviceList({ ...filters, page, limit, sort: sort.field, order: sort.order });
  // Online state and last-seen of the rows on screen follow the live channel.
  const pageIds = useMemo(() => (list.data?.items ?? []).map((d) => d.id), [list.data]);
  const liveStates = useLiveDevices(pageIds);
  const rows = useMemo(
    () =>
      (list.data?.items ?? []).map((d) => {
        const s = liveStates.get(d.id);
        return s ? { ...d, online: s.online ?? d.online, lastSeenAt: s.lastSeenAt ?? d.lastSeenAt } : d;
      }),
    [list.data, liveStates],
  );
  const remove = useDeleteDevices();
  const regenerate = useRegenerateSecret();
  const invalidate = useInvalidateDevices();

  /** Any filter change starts again on page 1. */
  const filtered =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  const resetFilters = () => {
    if (fixedProjectId === undefined) {
      setProjectId(undefined);
      setProjectName(undefined);
    }
    setTypeId(undefined);
    setOnline('all');
    setWarningLevel(undefined);
    setQ('');
    setSearch('');
    setPage(1);
    onReset?.();
  };

  const confirmDelete = (ids: number[], label: string) => {
    modal.confirm({
      title: t('devices:delete.title', { count: ids.length }),
      content: ids.length === 1 ? t('devices:delete.one', { name: label }) : t('devices:delete.many', { count: ids.length }),
      okText: t('devices:delete.ok'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-ok' },
      cancelText: t('common:cancel'),
      onOk: async () => {
        try {
          const { count } = await remove.mutateAsync(ids);
          feedbackMessage().success(t('devices:delete.done', { count }));
          setSelected((s) => s.filter((id) => !ids.includes(id)));
        } catch {
          // reported by the http client
        }
      },
    });
  };

  const confirmRegenerate = (d: DeviceDto) => {
    modal.confirm({
      title: t('devices:secret.regenerateTitle', { name: d.name }),
      content: t('devices:secret.regenerateWarning'),
      okText: t('devices:secret.regenerate'),
      okButtonProps: { 'data-testid': 'confirm-ok' },
      cancelText: t('common:cancel'),
      onOk: async () => {
        try {
          const credential = await regenerate.mutateAsync(d.id);
          setSecret({ credential, reason: 'regenerated' });
        } catch {
          // reported by the http client
        }
      },
    });
  };

  const exportList = async () => {
    setExporting(true);
    try {
      await downloadFile(
        deviceApi.export,
        { ...filters, q: filters.q?.trim(), sort: sort.field, order: sort.order, lang: currentLanguage() },
        'devices.xlsx',
      );
    } catch {
      // reported by downloadFile
    } finally {
      setExporting(false);
    }
  };

  const actions = actionsColumn<DeviceDto>({
    title: t('devices:columns.actions'),
    compact: mobile,
    width: 230,
    rowKey: (d) => d.id,
    actions: (d) => [
      ...(canEdit
        ? [
            { key: 'edit', label: t('devices:edit'), testId: `row-edit-${d.id}`, onClick: () => setDrawer({ open: true, device: d }) },
            { key: 'secret', label: t('devices:secret.regenerateShort'), testId: `row-secret-${d.id}`, onClick: () => confirmRegenerate(d) },
          ]
        : []),
      ...(canDelete
        ? [{ key: 'delete', label: t('devices:delete.action'), danger: true, testId: `row-delete-${d.id}`, onClick: () => confirmDelete([d.id], d.name) }]
        : []),
    ],
  });
  const columns = [...deviceColumns(t, sort, { project: fixedProjectId === undefined, pinName: mobile }), ...(canEdit || canDelete ? [actions] : [])];

  return (
    <div data-testid="device-table">
      <Space wrap style={{ marginBottom: 12 }}>
        {fixedProjectId === undefined && (
          <ProjectSelect
            value={projectId}
            onChange={(v, name) => {
              filtered(setProjectId)(v ?? undefined);
              setProjectName(name);
            }}
            currentName={projectName}
            placeholder={t('devices:filters.project')}
            style={{ width: 200 }}
            data-testid="filter-project"
          />
        )}
        <TypeSelect
          value={typeId}
          onChange={filtered(setTypeId)}
          allowClear
          placeholder={t('devices:filters.type')}
          style={{ width: 200 }}
          data-testid="filter-type"
        />
        <Select<OnlineFilter>
          value={online}
          onChange={filtered(setOnline)}
          style={{ width: 150 }}
          options={(['all', 'online', 'offline'] as const).map((v) => ({ value: v, label: t(`devices:filters.onlineOptions.${v}`) }))}
          data-testid="filter-online"
        />
        <Select<number>
          value={warningLevel}
          onChange={filtered(setWarningLevel)}
          allowClear
          placeholder={t('devices:filters.level')}
          style={{ width: 180 }}
          options={[0, 1, 2, 3, 4].map((l) => ({ value: l, label: t(`devices:levels.${l}`) }))}
          data-testid="filter-level"
        />
        <Input.Search
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            if (!e.target.value) filtered(setQ)('');
          }}
          onSearch={(v) => {
            repeat(v.trim());
            filtered(setQ)(v.trim());
          }}
          allowClear
          placeholder={t('devices:filters.q')}
          style={{ width: 300 }}
          maxLength={64}
          data-testid="filter-q"
        />
        <Button icon={<ReloadOutlined />} onClick={resetFilters} data-testid="filter-reset">
          {t('devices:filters.reset')}
        </Button>
      </Space>

      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', marginBottom: 12 }}>
        {canAdd && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDrawer({ open: true, device: null })} data-testid="btn-add">
            {t('devices:add')}
          </Button>
        )}
        {canImport && (
          <Button icon={<UploadOutlined />} onClick={() => setImportOpen(true)} data-testid="btn-import">
            {t('devices:import.button')}
          </Button>
        )}
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportList()} data-testid="btn-export">
          {t('devices:export')}
        </Button>
        {canEdit && (
          <Button icon={<SwapOutlined />} disabled={selected.length === 0} onClick={() => setMoveOpen(true)} data-testid="btn-bulk-move">
            {t('devices:bulk.move')}
          </Button>
        )}
        {canDelete && (
          <Button
            danger
            icon={<DeleteOutlined />}
            disabled={selected.length === 0}
            onClick={() => confirmDelete(selected, '')}
            data-testid="btn-bulk-delete"
          >
            {t('devices:bulk.delete')}
          </Button>
        )}
        {selected.length > 0 && (
          <Typography.Text type="secondary" data-testid="selection-count">
            {t('devices:bulk.selected', { count: selected.length })}{' '}
            <Typography.Link onClick={() => setSelected([])}>{t('devices:bulk.clear')}</Typography.Link>
          </Typography.Text>
        )}
      </div>

      <Table<DeviceDto>
        rowKey="id"
        size="middle"
        data-testid="table-devices"
        loading={list.isFetching}
        columns={columns}
        dataSource={rows}
        scroll={{ x: 1800 }}
        rowSelection={
          canEdit || canDelete
            ? {
                selectedRowKeys: selected,
                preserveSelectedRowKeys: true,
                onChange: (keys) => setSelected(keys as number[]),
              }
            : undefined
        }
        expandable={{
          rowExpandable: (d) => d.subCount > 0,
          expandedRowRender: (d) => <SubDevices parentId={d.id} />,
        }}
        onChange={(_, __, sorter) => {
          const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<DeviceDto> | undefined;
          const key = s?.columnKey as DeviceSort | undefined;
          if (key && s?.order) {
            setSort({ field: key, order: s.order === 'ascend' ? 'asc' : 'desc' });
            setPage(1);
          } else if (s && !s.order) {
            setSort({ field: 'createdAt', order: 'desc' });
          }
        }}
        pagination={{
          current: page,
          pageSize: limit,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          showTotal: (total) => t('common:total', { total }),
          onChange: (p, size) => {
            setPage(size === limit ? p : 1);
            setLimit(size);
          },
        }}
      />

      <DeviceDrawer
        open={drawer.open}
        device={drawer.device}
        defaultProjectId={fixedProjectId ?? projectId}
        defaultProjectName={fixedProjectName ?? projectName}
        onClose={() => setDrawer({ open: false, device: null })}
        onCreated={(credential) => setSecret({ credential, reason: 'created' })}
      />
      <SecretModal credential={secret?.credential ?? null} reason={secret?.reason ?? 'created'} onClose={() => setSecret(null)} />
      <MoveDevicesModal
        ids={selected}
        open={moveOpen}
        onClose={() => setMoveOpen(false)}
        onDone={() => {
          setMoveOpen(false);
          setSelected([]);
        }}
      />
      <ImportDialog open={importOpen} onClose={() => setImportOpen(false)} onImported={invalidate} />
    </div>
  );
}
