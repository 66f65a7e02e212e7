import { useEffect, useMemo, useState } from 'react';
import { App, Button, Input, Select, Space, Typography } from 'antd';
import {
  DeleteOutlined,
  DownloadOutlined,
  ReloadOutlined,
  SwapOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { deviceRoutes } from '@iot/contract/plain';
import type { DeviceDto } from '@iot/contract';
import { usePermission } from '../../lib/session';
import { feedbackMessage } from '../../lib/feedback';
import { currentLanguage } from '../../lib/i18n';
import {
  useDeleteDevices,
  useDeviceList,
  useInvalidateDevices,
  useRegenerateSecret,
  topLevelOf,
  type DeviceCredential,
  type DeviceFilters,
  type DeviceSort,
} from './api';
import { deviceColumns } from './columns';
import { DeviceDrawer } from './DeviceDrawer';
import { ImportDialog } from './ImportDialog';
import { MoveDevicesModal } from './MoveDevicesModal';
import { ProjectSelect } from '../../components/ProjectSelect';
import { selectionTitle } from '../../components/SelectionTitle';
import { alarmLevelOptions } from '../../components/AlarmLevel';
import { TypeSelect } from './pickers';
import { SecretModal } from './SecretModal';
import { SubDevices } from './SubDevices';
import { actionsColumn } from '../../components/RowActions';
import { useIsMobile } from '../../lib/use-mobile';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { useLiveDevices } from '../../lib/use-live-devices';
import { useRepeatSearch } from '../../lib/use-repeat-search';
import { useServerTable } from '../../lib/use-server-table';
import type { FilterSpec } from '../../lib/use-list-params';
import { AddButton } from '../../components/ListActions';
import { downloadFile } from '../../lib/transfer';

interface Props {
  /** Show only this project's devices (project details); the project filter is hidden. */
  fixedProjectId?: number;
  fixedProjectName?: string;
  /** The page's own list: filters, sort and page in the address (the device list page). */
  inAddress?: boolean;
  /** Names of projects the address may filter on (the project filter shows the name). */
  projectNames?: Readonly<Record<number, string>>;
}

/** The device list's filters as its address spells them. */
const DEVICE_FILTERS: FilterSpec<DeviceFilters> = {
  projectId: 'number',
  typeId: 'number',
  online: 'string',
  enabled: 'string',
  warningLevel: 'number',
  alarming: 'string',
  q: 'string',
  parentId: 'number',
};

/** The level filter's "any alarm" choice (levels are 0–4). */
const ANY_ALARM = -1;

type OnlineFilter = 'all' | 'online' | 'offline';
type EnabledFilter = 'all' | 'enabled' | 'disabled';
/** The `online` and `enabled` filters of the list and export queries. */
const ONLINE_QUERY = { all: undefined, online: 'true', offline: 'false' } as const;
const ENABLED_QUERY = { all: undefined, enabled: 'true', disabled: 'false' } as const;

/**
 * The device list: server-side filters, paging and sorting; add/edit in a drawer; bulk move and
 * delete of the selected rows; import, export and the ingestion secret shown once.
 */
export function DeviceTable({ fixedProjectId, fixedProjectName, inAddress, projectNames }: Props) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const canAdd = usePermission('device:add');
  const canDetail = usePermission('device:detail');
  const canEdit = usePermission('device:edit');
  const canDelete = usePermission('device:delete');
  const canImport = usePermission('device:import');
  const mobile = useIsMobile();
  const repeat = useRepeatSearch('');

  // Filters apply as they change (no Search button); any change starts again on page 1.
  const table = useServerTable<DeviceFilters, DeviceSort>({
    sort: 'createdAt',
    order: 'desc',
    url: inAddress ? DEVICE_FILTERS : undefined,
    fixed: fixedProjectId === undefined ? undefined : { projectId: fixedProjectId },
  });
  const filters = table.filters;
  const filter = (changes: DeviceFilters) => table.patch(changes);
  const online: OnlineFilter = filters.online === undefined ? 'all' : filters.online === 'true' ? 'online' : 'offline';
  const enabled: EnabledFilter = filters.enabled === undefined ? 'all' : filters.enabled === 'true' ? 'enabled' : 'disabled';
  // The name of the project picked here; a project given by the address is named by the page.
  const [picked, setPicked] = useState<{ id?: number; name?: string }>({});
  const projectId = fixedProjectId ?? filters.projectId;
  const projectName =
    fixedProjectName ?? (picked.id === projectId ? picked.name : projectId ? projectNames?.[projectId] : undefined);
  // The search box holds what is typed; it shows the applied search again when the list's
  // address changes (Back, a tab, a link).
  const [search, setSearch] = useState(filters.q ?? '');
  useEffect(() => setSearch(filters.q ?? ''), [filters.q]);
  const [selected, setSelected] = useState<number[]>([]);
  // What the server allows on each selected row, kept across pages (the selection outlives them).
  const [selectedCan, setSelectedCan] = useState<ReadonlyMap<number, DeviceDto['can']>>(new Map());
  const allSelected = (action: 'move' | 'delete') => selected.length > 0 && selected.every((id) => selectedCan.get(id)?.[action]);
  const [drawer, setDrawer] = useState<{ open: boolean; device: DeviceDto | null }>({ open: false, device: null });
  const [secret, setSecret] = useState<{ credential: DeviceCredential; reason: 'created' | 'regenerated' } | null>(null);
  const [moveOpen, setMoveOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [exporting, setExporting] = useState(false);

  const list = useDeviceList(table.params);
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
  // `?open=add` or `?open=import` (the dashboard's empty state) opens the drawer or the import
  // dialog once, when the user may, and leaves the address.
  const [address, setAddress] = useSearchParams();
  const opening = inAddress ? address.get('open') : null;
  useEffect(() => {
    if (!opening) return;
    if (opening === 'add' && canAdd) setDrawer({ open: true, device: null });
    if (opening === 'import' && canImport) setImportOpen(true);
    setAddress(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('open');
        return next;
      },
      { replace: true },
    );
  }, [opening, canAdd, canImport, setAddress]);

  const remove = useDeleteDevices();
  const regenerate = useRegenerateSecret();
  const invalidate = useInvalidateDevices();

  const resetFilters = () => {
    setPicked({});
    table.search({});
    setSearch('');
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
        deviceRoutes.export,
        { ...filters, q: filters.q?.trim(), topLevel: topLevelOf(filters), sort: table.params.sort, order: table.params.order, lang: currentLanguage() },
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
    // Only what the server says this caller may do with this row (`can`): a device of a project
    // only shared with the caller offers nothing that would be refused.
    actions: (d) => [
      ...(d.can.edit
        ? [{ key: 'edit', label: t('devices:edit'), testId: `row-edit-${d.id}`, onClick: () => setDrawer({ open: true, device: d }) }]
        : []),
      ...(d.can.secret
        ? [{ key: 'secret', label: t('devices:secret.regenerateShort'), testId: `row-secret-${d.id}`, onClick: () => confirmRegenerate(d) }]
        : []),
      ...(d.can.delete
        ? [{ key: 'delete', label: t('devices:delete.action'), danger: true, testId: `row-delete-${d.id}`, onClick: () => confirmDelete([d.id], d.name) }]
        : []),
    ],
  });
  const columns: DataColumn<DeviceDto>[] = [
    ...deviceColumns(t, (key) => table.sortable(key, true), { project: fixedProjectId === undefined, detailLink: canDetail }),
    ...(canEdit || canDelete ? [{ ...actions, width: actions.width as number, key: 'actions' }] : []),
  ];

  return (
    <div data-testid="device-table">
      <Space wrap style={{ marginBottom: 12 }}>
        {fixedProjectId === undefined && (
          <ProjectSelect
            value={filters.projectId}
            onChange={(v, name) => {
              filter({ projectId: v ?? undefined });
              setPicked({ id: v ?? undefined, name });
            }}
            currentName={projectName}
            placeholder={t('devices:filters.project')}
            aria-label={t('devices:filters.project')}
            style={{ width: 200 }}
            data-testid="filter-project"
          />
        )}
        <TypeSelect
          value={filters.typeId}
          onChange={(typeId) => filter({ typeId })}
          allowClear
          placeholder={t('devices:filters.type')}
          aria-label={t('devices:filters.type')}
          style={{ width: 200 }}
          data-testid="filter-type"
        />
        <Select<OnlineFilter>
          value={online}
          onChange={(v) => filter({ online: ONLINE_QUERY[v] })}
          style={{ width: 150 }}
          aria-label={t('devices:filters.online')}
          options={(['all', 'online', 'offline'] as const).map((v) => ({ value: v, label: t(`devices:filters.onlineOptions.${v}`) }))}
          data-testid="filter-online"
        />
        <Select<EnabledFilter>
          value={enabled}
          onChange={(v) => filter({ enabled: ENABLED_QUERY[v] })}
          style={{ width: 150 }}
          aria-label={t('devices:filters.enabled')}
          options={(['all', 'enabled', 'disabled'] as const).map((v) => ({ value: v, label: t(`devices:filters.enabledOptions.${v}`) }))}
          data-testid="filter-enabled"
        />
        <Select<number>
          value={filters.alarming === 'true' ? ANY_ALARM : filters.warningLevel}
          // "Any alarm" is its own filter (alarming=true), one level the other.
          onChange={(v) => filter(v === ANY_ALARM ? { alarming: 'true', warningLevel: undefined } : { warningLevel: v, alarming: undefined })}
          allowClear
          placeholder={t('devices:filters.level')}
          aria-label={t('devices:filters.level')}
          style={{ width: 180 }}
          options={[{ value: ANY_ALARM, label: t('devices:filters.anyAlarm') }, ...alarmLevelOptions(t, true)]}
          data-testid="filter-level"
        />
        <Input.Search
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            if (!e.target.value) filter({ q: undefined });
          }}
          onSearch={(v) => {
            repeat(v.trim());
            filter({ q: v.trim() || undefined });
          }}
          allowClear
          placeholder={t('devices:filters.q')}
          aria-label={t('devices:filters.q')}
          style={{ width: 300 }}
          maxLength={64}
          data-testid="filter-q"
        />
        <Button icon={<ReloadOutlined />} onClick={resetFilters} data-testid="filter-reset">
          {t('devices:filters.reset')}
        </Button>
      </Space>

      <DataTable<DeviceDto>
        tableId="devices"
        restoreScroll={inAddress}
        toolbar={
          <>
            {canAdd && <AddButton onClick={() => setDrawer({ open: true, device: null })}>{t('devices:add')}</AddButton>}
            {canImport && (
              <Button icon={<UploadOutlined />} onClick={() => setImportOpen(true)} data-testid="btn-import">
                {t('devices:import.button')}
              </Button>
            )}
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportList()} data-testid="btn-export">
              {t('devices:export')}
            </Button>
            {canEdit && (
              <Button icon={<SwapOutlined />} disabled={!allSelected('move')} onClick={() => setMoveOpen(true)} data-testid="btn-bulk-move">
                {t('devices:bulk.move')}
              </Button>
            )}
            {canDelete && (
              <Button
                danger
                icon={<DeleteOutlined />}
                disabled={!allSelected('delete')}
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
          </>
        }
        data-testid="table-devices"
        columns={columns}
        {...table.tableProps(list.data, list.isFetching)}
        dataSource={rows}
        rowSelection={
          canEdit || canDelete
            ? {
                selectedRowKeys: selected,
                columnTitle: selectionTitle,
                preserveSelectedRowKeys: true,
                onChange: (keys, picked) => {
                  setSelected(keys as number[]);
                  setSelectedCan((prev) => {
                    const next = new Map(prev);
                    // Rows of other pages come as undefined: their entry stays.
                    for (const d of picked) if (d) next.set(d.id, d.can);
                    return next;
                  });
                },
                // A row the caller may neither move nor delete offers no checkbox to pick it with.
                getCheckboxProps: (d) => ({ disabled: !d.can.move && !d.can.delete }),
              }
            : undefined
        }
        expandable={{
          // As narrow as its button: the list's default columns fit 1,280 px.
          columnWidth: 32,
          rowExpandable: (d) => d.subCount > 0,
          expandedRowRender: (d) => <SubDevices parentId={d.id} />,
        }}
      />

      <DeviceDrawer
        open={drawer.open}
        device={drawer.device}
        defaultProjectId={projectId}
        defaultProjectName={projectName}
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
