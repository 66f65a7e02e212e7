import { useState } from 'react';
import { Card, Form, Input, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RoleDto } from '@iot/contract';
import { usePermission } from '../../lib/session';
import { FilterBar } from '../../components/FilterBar';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { AddButton, DeleteLink, RowLink } from '../../components/ListActions';
import { roleLabel } from '../../lib/acl-labels';
import { parseTime } from '../../lib/format';
import { useCrud } from '../../lib/use-crud';
import { useServerTable } from '../../lib/use-server-table';
import { createRole, deleteRole, editRole, useRoleList, type RoleFilters, type RoleInput, type RoleSort } from './api';
import { roleKeys } from '../../lib/query-keys';
import { RoleForm } from './RoleForm';
import { RolePermissionDrawer } from './RolePermissionDrawer';

/** §2 /sys/role: roles with their user count and permission sets. */
export default function RolePage() {
  const { t } = useTranslation();
  const canList = usePermission('role:list');
  const canAdd = usePermission('role:add');
  const canEdit = usePermission('role:edit');
  const canDelete = usePermission('role:delete');
  const table = useServerTable<RoleFilters, RoleSort>({ sort: 'id', order: 'asc', url: { name: 'string' } });
  const { data, isFetching } = useRoleList(table.params);
  const [permissionsOf, setPermissionsOf] = useState<RoleDto | null>(null);

  // A refused delete (a role still given to users) is shown by the http client.
  const crud = useCrud<RoleDto, RoleInput>({
    create: createRole,
    edit: editRole,
    remove: deleteRole,
    queryKey: roleKeys.all,
  });

  const columns: DataColumn<RoleDto>[] = [
    { title: 'ID', dataIndex: 'id', key: 'id', width: 70, sorter: true, sortOrder: table.sortOrderOf('id') },
    {
      title: t('roles:name'),
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      sortOrder: table.sortOrderOf('name'),
      width: 200,
      phone: true,
      render: (_, r) => (
        <Space size={6}>
          <span>{roleLabel(r.identification, r.name)}</span>
          {r.builtin && <Tag color="gold">{t('crud:builtin')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('roles:identification'),
      dataIndex: 'identification',
      key: 'identification',
      width: 180,
      phone: true,
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    { title: t('roles:userCount'), dataIndex: 'userCount', key: 'userCount', width: 100, align: 'right', phone: true },
    {
      title: t('crud:createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 160,
      sorter: true,
      sortOrder: table.sortOrderOf('createdAt'),
      render: (v: string) => parseTime(v),
    },
    {
      title: t('crud:actions'),
      key: 'actions',
      width: 220,
      fixed: 'end',
      render: (_, r) => (
        <Space size={0}>
          {canEdit && r.editable && (
            <RowLink testId={`row-edit-${r.id}`} onClick={() => crud.edit(r)}>
              {t('crud:edit')}
            </RowLink>
          )}
          {canList && (
            <RowLink testId={`row-permissions-${r.id}`} onClick={() => setPermissionsOf(r)}>
              {t('roles:permissions')}
            </RowLink>
          )}
          {canDelete && r.editable && !r.builtin && (
            <DeleteLink
              title={t('roles:deleteConfirm', { name: r.name })}
              description={r.userCount > 0 ? t('roles:deleteInUse', { count: r.userCount }) : undefined}
              onConfirm={() => crud.remove(r)}
              testId={`row-delete-${r.id}`}
            />
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card data-testid="page-role">
      <FilterBar<RoleFilters>
        onSearch={table.search}
        values={table.filters}
        extra={canAdd && <AddButton onClick={crud.add} />}
      >
        <Form.Item name="name">
          <Input placeholder={t('roles:name')} aria-label={t('roles:name')} allowClear data-testid="filter-name" style={{ width: 200 }} />
        </Form.Item>
      </FilterBar>
      <DataTable<RoleDto>
        tableId="roles"
        columns={columns}
        data-testid="table-role"
        {...table.tableProps(data, isFetching)}
      />
      <RoleForm
        open={crud.open}
        role={crud.row}
        onCancel={crud.close}
        onSubmit={crud.save}
      />
      <RolePermissionDrawer role={permissionsOf} canEdit={canEdit} onClose={() => setPermissionsOf(null)} />
    </Card>
  );
}
