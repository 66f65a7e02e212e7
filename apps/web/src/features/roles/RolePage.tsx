import { useState } from 'react';
import { Button, Card, Form, Input, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RoleDto } from '@iot/contract';
import { usePermission } from '../../app/session';
import { FilterBar } from '../../components/FilterBar';
import { roleLabel } from '../../lib/acl-labels';
import { feedbackMessage } from '../../lib/feedback';
import { parseTime } from '../../lib/format';
import { useServerTable } from '../../lib/use-server-table';
import { createRole, deleteRole, editRole, roleKeys, useRoleList, type RoleFilters, type RoleInput, type RoleSort } from './api';
import { RoleForm } from './RoleForm';
import { RolePermissionDrawer } from './RolePermissionDrawer';

type Editing = { mode: 'add' } | { mode: 'edit'; role: RoleDto } | null;

/** §2 /sys/role: roles with their user count and permission sets. */
export default function RolePage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canList = usePermission('role:list');
  const canAdd = usePermission('role:add');
  const canEdit = usePermission('role:edit');
  const canDelete = usePermission('role:delete');
  const table = useServerTable<RoleFilters, RoleSort>({ sort: 'id', order: 'asc' });
  const { data, isFetching } = useRoleList(table.params);
  const [editing, setEditing] = useState<Editing>(null);
  const [permissionsOf, setPermissionsOf] = useState<RoleDto | null>(null);

  const changed = () => queryClient.invalidateQueries({ queryKey: roleKeys.all });

  const save = async (values: RoleInput) => {
    if (editing?.mode === 'edit') {
      await editRole({ ...values, id: editing.role.id });
      feedbackMessage().success(t('crud:updated'));
    } else {
      await createRole(values);
      feedbackMessage().success(t('crud:created'));
    }
    setEditing(null);
    await changed();
  };

  const remove = async (role: RoleDto) => {
    try {
      await deleteRole(role.id);
      feedbackMessage().success(t('crud:deleted'));
      await changed();
    } catch {
      // the server's refusal (a role still given to users) is shown by the http client
    }
  };

  const columns: ColumnsType<RoleDto> = [
    { title: 'ID', dataIndex: 'id', key: 'id', width: 80, sorter: true, sortOrder: table.sortOrderOf('id') },
    {
      title: t('roles:name'),
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      sortOrder: table.sortOrderOf('name'),
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
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    { title: t('roles:userCount'), dataIndex: 'userCount', width: 110, align: 'right' },
    {
      title: t('crud:createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 180,
      sorter: true,
      sortOrder: table.sortOrderOf('createdAt'),
      render: (v: string) => parseTime(v),
    },
    {
      title: t('crud:actions'),
      key: 'actions',
      width: 220,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          {canEdit && r.editable && (
            <Button type="link" size="small" data-testid={`row-edit-${r.id}`} onClick={() => setEditing({ mode: 'edit', role: r })}>
              {t('crud:edit')}
            </Button>
          )}
          {canList && (
            <Button type="link" size="small" data-testid={`row-permissions-${r.id}`} onClick={() => setPermissionsOf(r)}>
              {t('roles:permissions')}
            </Button>
          )}
          {canDelete && r.editable && !r.builtin && (
            <Popconfirm
              title={t('roles:deleteConfirm', { name: r.name })}
              description={r.userCount > 0 ? t('roles:deleteInUse', { count: r.userCount }) : undefined}
              okText={t('common:confirm')}
              cancelText={t('common:cancel')}
              okButtonProps={{ danger: true, ...({ 'data-testid': 'confirm-ok' } as Record<string, string>) }}
              onConfirm={() => remove(r)}
            >
              <Button type="link" size="small" danger data-testid={`row-delete-${r.id}`}>
                {t('crud:delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card data-testid="page-role">
      <FilterBar<RoleFilters>
        onSearch={table.search}
        extra={
          canAdd && (
            <Button type="primary" icon={<PlusOutlined />} data-testid="btn-add" onClick={() => setEditing({ mode: 'add' })}>
              {t('crud:add')}
            </Button>
          )
        }
      >
        <Form.Item name="name">
          <Input placeholder={t('roles:name')} allowClear data-testid="filter-name" style={{ width: 200 }} />
        </Form.Item>
      </FilterBar>
      <Table<RoleDto>
        rowKey="id"
        size="middle"
        columns={columns}
        scroll={{ x: 900 }}
        data-testid="table-role"
        {...table.tableProps(data, isFetching)}
      />
      <RoleForm
        open={editing !== null}
        role={editing?.mode === 'edit' ? editing.role : undefined}
        onCancel={() => setEditing(null)}
        onSubmit={save}
      />
      <RolePermissionDrawer role={permissionsOf} canEdit={canEdit} onClose={() => setPermissionsOf(null)} />
    </Card>
  );
}
