import { useEffect, useState } from 'react';
import { Button, Card, Input, Space, Tag, Typography } from 'antd';
import { UnorderedListOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { ProjectDto } from '@iot/contract';
import { usePermission } from '../../lib/session';
import { parseTime } from '../../lib/format';
import { useRepeatSearch } from '../../lib/use-repeat-search';
import { useServerTable } from '../../lib/use-server-table';
import { AddButton, RowLink } from '../../components/ListActions';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { useProjectList, type ProjectListParams, type ProjectSort } from './api';
import { useDeleteProjectFlow } from './DeleteProject';
import { ProjectFormModal } from './ProjectFormModal';

/** /project/index (project:list): projects with server-side paging, sorting and name filter. */
export default function ProjectListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const canAdd = usePermission('project:add');
  const canEdit = usePermission('project:edit');
  const canDelete = usePermission('project:delete');
  const canUsers = usePermission('project:users');
  const canDevices = usePermission('device:list');
  // Hidden routes exist only for holders of their menu's code (project:detail → /project/details).
  const canDetails = usePermission('project:detail');
  const canMap = usePermission('map:view');

  const table = useServerTable<Pick<ProjectListParams, 'name'>, ProjectSort>({ sort: 'createdAt', order: 'desc', url: { name: 'string' } });
  // The search box holds what is typed; it shows the applied search again when the address changes.
  const [search, setSearch] = useState(table.filters.name ?? '');
  useEffect(() => setSearch(table.filters.name ?? ''), [table.filters.name]);
  const repeat = useRepeatSearch(table.filters.name ?? '');
  const [editing, setEditing] = useState<{ open: boolean; project: ProjectDto | null }>({ open: false, project: null });
  const list = useProjectList(table.params);
  const deletion = useDeleteProjectFlow();

  const sortable = (key: ProjectSort) => table.sortable(key, true);

  const columns: DataColumn<ProjectDto>[] = [
    {
      title: t('projects:fields.name'),
      dataIndex: 'name',
      ...sortable('name'),
      key: 'name',
      width: 200,
      render: (v: string, p) => (canDetails ? <Link to={`/project/details?id=${p.id}`}>{v}</Link> : v),
    },
    { title: t('projects:fields.owner'), dataIndex: 'ownerName', key: 'ownerName', width: 130, phone: true },
    {
      title: t('projects:fields.address'),
      dataIndex: 'address',
      key: 'address',
      width: 240,
      optional: true,
      render: (v: string) =>
        v ? (
          <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 240 }}>
            {v}
          </Typography.Text>
        ) : (
          t('common:empty')
        ),
    },
    {
      title: t('projects:columns.deviceCount'),
      dataIndex: 'deviceCount',
      key: 'deviceCount',
      width: 110,
      phone: true,
      align: 'right',
      render: (n: number, p) => (canDevices ? <Link to={`/device/list?projectId=${p.id}`}>{n}</Link> : n),
    },
    {
      title: t('projects:columns.features'),
      key: 'features',
      width: 180,
      optional: true,
      render: (_, p) => (
        <Space size={4} wrap>
          <Tag color={p.weather ? 'blue' : 'default'}>{t(p.weather ? 'projects:tags.weatherOn' : 'projects:tags.weatherOff')}</Tag>
          <Tag color={p.map ? 'green' : 'default'}>{t(p.map ? 'projects:tags.mapOn' : 'projects:tags.mapOff')}</Tag>
        </Space>
      ),
    },
    {
      title: t('projects:columns.createdAt'),
      dataIndex: 'createdAt',
      ...sortable('createdAt'),
      key: 'createdAt',
      width: 160,
      render: (v: string) => parseTime(v) ?? '',
    },
    {
      title: t('projects:columns.actions'),
      key: 'actions',
      fixed: 'end',
      width: 320,
      // Buttons wrap to a second line rather than widen the table (longer words in Spanish).
      render: (_, p) => (
        <Space size={0} wrap>
          {canDetails && (
            <RowLink testId={`row-details-${p.id}`} onClick={() => navigate(`/project/details?id=${p.id}`)}>
              {t('projects:actions.details')}
            </RowLink>
          )}
          {canDevices && (
            <RowLink testId={`row-devices-${p.id}`} onClick={() => navigate(`/device/list?projectId=${p.id}`)}>
              {t('projects:actions.devices')}
            </RowLink>
          )}
          {canMap && p.map && (
            <RowLink testId={`row-map-${p.id}`} onClick={() => navigate(`/project/map?projectId=${p.id}`)}>
              {t('projects:actions.map')}
            </RowLink>
          )}
          {/* The server's `can`: a project only shared with the caller is read-only to it. */}
          {canUsers && p.can.users && (
            <RowLink testId={`row-users-${p.id}`} onClick={() => navigate(`/project/userProjectList?id=${p.id}`)}>
              {t('projects:actions.users')}
            </RowLink>
          )}
          {canEdit && p.can.edit && (
            <RowLink testId={`row-edit-${p.id}`} onClick={() => setEditing({ open: true, project: p })}>
              {t('projects:actions.edit')}
            </RowLink>
          )}
          {canDelete && p.can.delete && (
            <Button type="link" size="small" danger onClick={() => deletion.start(p)} data-testid={`row-delete-${p.id}`}>
              {t('projects:actions.delete')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card title={t('projects:title')} data-testid="project-list-page">
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 12 }}>
        <Input.Search
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            if (!e.target.value) table.search({});
          }}
          onSearch={(v) => {
            repeat(v.trim());
            table.search(v.trim() ? { name: v.trim() } : {});
          }}
          allowClear
          maxLength={64}
          placeholder={t('projects:filters.name')}
          aria-label={t('projects:filters.name')}
          style={{ width: 260 }}
          data-testid="filter-name"
        />
        <div style={{ flex: 1 }} />
        {canDevices && (
          <Button icon={<UnorderedListOutlined />} onClick={() => navigate('/device/list')} data-testid="btn-all-devices">
            {t('projects:allDevices')}
          </Button>
        )}
        {canAdd && <AddButton onClick={() => setEditing({ open: true, project: null })}>{t('projects:add')}</AddButton>}
      </div>
      <DataTable<ProjectDto>
        tableId="projects"
        data-testid="table-projects"
        columns={columns}
        {...table.tableProps(list.data, list.isFetching)}
      />
      <ProjectFormModal open={editing.open} project={editing.project} onClose={() => setEditing({ open: false, project: null })} />
      {deletion.element}
    </Card>
  );
}
