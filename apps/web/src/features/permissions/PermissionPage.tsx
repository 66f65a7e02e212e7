import { useMemo, useState } from 'react';
import { Button, Card, Form, Input, Popconfirm, Space, Table, Tag, TreeSelect, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PermissionDto } from '@iot/contract';
import { reloadMenus, usePermission } from '../../app/session';
import { FilterBar } from '../../components/FilterBar';
import { isConsoleCode, permissionLabel } from '../../lib/acl-labels';
import { feedbackMessage } from '../../lib/feedback';
import { parseTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { useServerTable } from '../../lib/use-server-table';
import {
  createPermission,
  deletePermission,
  editPermission,
  permissionKeys,
  usePermissionList,
  usePermissionMenuOptions,
  type PermissionFilters,
  type PermissionSort,
  type PermissionInput,
} from './api';
import { menuNames, menuTreeData } from './menu-tree';
import { PermissionForm } from './PermissionForm';

type Editing = { mode: 'add' } | { mode: 'edit'; permission: PermissionDto } | null;

/** §2 /sys/permission: permission codes and the menus they belong to. */
export default function PermissionPage() {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const queryClient = useQueryClient();
  const canAdd = usePermission('permission:add');
  const canEdit = usePermission('permission:edit');
  const canDelete = usePermission('permission:delete');
  const table = useServerTable<PermissionFilters, PermissionSort>({ sort: 'id', order: 'asc' });
  const { data, isFetching } = usePermissionList(table.params);
  const { data: menuOptions = [] } = usePermissionMenuOptions();
  const menuTree = useMemo(() => menuTreeData(menuOptions, lang), [menuOptions, lang]);
  const names = useMemo(() => menuNames(menuOptions, lang), [menuOptions, lang]);
  const [editing, setEditing] = useState<Editing>(null);

  const changed = async () => {
    await queryClient.invalidateQueries({ queryKey: permissionKeys.all });
    // Permissions decide which menus show: the sidebar follows.
    void reloadMenus().catch(() => undefined);
  };

  const save = async (values: PermissionInput) => {
    if (editing?.mode === 'edit') {
      await editPermission({ ...values, id: editing.permission.id });
      feedbackMessage().success(t('crud:updated'));
    } else {
      await createPermission(values);
      feedbackMessage().success(t('crud:created'));
    }
    setEditing(null);
    await changed();
  };

  const remove = async (p: PermissionDto) => {
    try {
      await deletePermission(p.id);
      feedbackMessage().success(t('crud:deleted'));
      await changed();
    } catch {
      // reported by the http client
    }
  };

  const columns: ColumnsType<PermissionDto> = [
    { title: 'ID', dataIndex: 'id', key: 'id', width: 80, sorter: true, sortOrder: table.sortOrderOf('id') },
    {
      title: t('permissions:name'),
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      sortOrder: table.sortOrderOf('name'),
      render: (_, p) => permissionLabel(p.identification, p.name),
    },
    {
      title: t('permissions:identification'),
      dataIndex: 'identification',
      key: 'identification',
      sorter: true,
      sortOrder: table.sortOrderOf('identification'),
      render: (v: string) => (
        <Space size={4}>
          <Typography.Text code>{v}</Typography.Text>
          {isConsoleCode(v) && <Tag color="gold">{t('crud:builtin')}</Tag>}
        </Space>
      ),
    },
    { title: t('permissions:menu'), dataIndex: 'menuId', render: (_, p) => names.get(p.menuId) ?? p.menuName },
    {
      title: t('crud:createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 180,
      sorter: true,
      sortOrder: table.sortOrderOf('createdAt'),
      render: (v: string) => parseTime(v),
    },
  ];
  if (canEdit || canDelete) {
    columns.push({
      title: t('crud:actions'),
      key: 'actions',
      width: 150,
      fixed: 'right',
      render: (_, p) => (
        <Space size={0}>
          {canEdit && (
            <Button type="link" size="small" data-testid={`row-edit-${p.id}`} onClick={() => setEditing({ mode: 'edit', permission: p })}>
              {t('crud:edit')}
            </Button>
          )}
          {canDelete && !isConsoleCode(p.identification) && (
            <Popconfirm
              title={t('permissions:deleteConfirm', { name: p.name })}
              okText={t('common:confirm')}
              cancelText={t('common:cancel')}
              okButtonProps={{ danger: true, ...({ 'data-testid': 'confirm-ok' } as Record<string, string>) }}
              onConfirm={() => remove(p)}
            >
              <Button type="link" size="small" danger data-testid={`row-delete-${p.id}`}>
                {t('crud:delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    });
  }

  return (
    <Card data-testid="page-permission">
      <FilterBar<PermissionFilters>
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
          <Input placeholder={t('permissions:name')} allowClear data-testid="filter-name" style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="identification">
          <Input placeholder={t('permissions:identification')} allowClear data-testid="filter-identification" style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="menuId">
          <TreeSelect
            treeData={menuTree}
            allowClear
            showSearch={{ treeNodeFilterProp: 'title' }}
            placeholder={t('permissions:menu')}
            style={{ width: 200 }}
            data-testid="filter-menuId"
          />
        </Form.Item>
      </FilterBar>
      <Table<PermissionDto>
        rowKey="id"
        size="middle"
        columns={columns}
        scroll={{ x: 960 }}
        data-testid="table-permission"
        {...table.tableProps(data, isFetching)}
      />
      <PermissionForm
        open={editing !== null}
        permission={editing?.mode === 'edit' ? editing.permission : undefined}
        menuTree={menuTree}
        onCancel={() => setEditing(null)}
        onSubmit={save}
      />
    </Card>
  );
}
