import { useMemo } from 'react';
import { Card, Form, Input, Space, Tag, TreeSelect, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PermissionDto } from '@iot/contract';
import { usePermission } from '../../lib/session';
import { FilterBar } from '../../components/FilterBar';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { AddButton, DeleteLink, RowLink } from '../../components/ListActions';
import { isConsoleCode, permissionLabel } from '../../lib/acl-labels';
import { parseTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { useCrud } from '../../lib/use-crud';
import { useServerTable } from '../../lib/use-server-table';
import {
  createPermission,
  deletePermission,
  editPermission,
  usePermissionList,
  usePermissionMenuOptions,
  type PermissionFilters,
  type PermissionSort,
  type PermissionInput,
} from './api';
import { menuNames, menuTreeData } from './menu-tree';
import { PermissionForm } from './PermissionForm';
import { permissionKeys } from '../../lib/query-keys';

/** §2 /sys/permission: permission codes and the menus they belong to. */
export default function PermissionPage() {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const canAdd = usePermission('permission:add');
  const canEdit = usePermission('permission:edit');
  const canDelete = usePermission('permission:delete');
  const table = useServerTable<PermissionFilters, PermissionSort>({
    sort: 'id',
    order: 'asc',
    url: { name: 'string', identification: 'string', menuId: 'number' },
  });
  const { data, isFetching } = usePermissionList(table.params);
  const { data: menuOptions = [] } = usePermissionMenuOptions();
  const menuTree = useMemo(() => menuTreeData(menuOptions, lang), [menuOptions, lang]);
  const names = useMemo(() => menuNames(menuOptions, lang), [menuOptions, lang]);

  const crud = useCrud<PermissionDto, PermissionInput>({
    create: createPermission,
    edit: editPermission,
    remove: deletePermission,
    queryKey: permissionKeys.all,
    // Permissions decide which menus show: the sidebar follows.
    reloadsMenus: true,
  });

  const columns: DataColumn<PermissionDto>[] = [
    { title: 'ID', dataIndex: 'id', key: 'id', width: 70, sorter: true, sortOrder: table.sortOrderOf('id') },
    {
      title: t('permissions:name'),
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      sortOrder: table.sortOrderOf('name'),
      width: 200,
      phone: true,
      render: (_, p) => permissionLabel(p.identification, p.name),
    },
    {
      title: t('permissions:identification'),
      dataIndex: 'identification',
      key: 'identification',
      sorter: true,
      sortOrder: table.sortOrderOf('identification'),
      width: 220,
      phone: true,
      render: (v: string) => (
        <Space size={4}>
          <Typography.Text code>{v}</Typography.Text>
          {isConsoleCode(v) && <Tag color="gold">{t('crud:builtin')}</Tag>}
        </Space>
      ),
    },
    { title: t('permissions:menu'), dataIndex: 'menuId', key: 'menuId', width: 160, phone: true, render: (_, p) => names.get(p.menuId) ?? p.menuName },
    {
      title: t('crud:createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 160,
      optional: true,
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
      fixed: 'end',
      render: (_, p) => (
        <Space size={0}>
          {canEdit && (
            <RowLink testId={`row-edit-${p.id}`} onClick={() => crud.edit(p)}>
              {t('crud:edit')}
            </RowLink>
          )}
          {canDelete && !isConsoleCode(p.identification) && (
            <DeleteLink
              title={t('permissions:deleteConfirm', { name: p.name })}
              onConfirm={() => crud.remove(p)}
              testId={`row-delete-${p.id}`}
            />
          )}
        </Space>
      ),
    });
  }

  return (
    <Card data-testid="page-permission">
      <FilterBar<PermissionFilters>
        onSearch={table.search}
        values={table.filters}
        extra={canAdd && <AddButton onClick={crud.add} />}
      >
        <Form.Item name="name">
          <Input placeholder={t('permissions:name')} aria-label={t('permissions:name')} allowClear data-testid="filter-name" style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="identification">
          <Input placeholder={t('permissions:identification')} aria-label={t('permissions:identification')} allowClear data-testid="filter-identification" style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="menuId">
          <TreeSelect
            treeData={menuTree}
            allowClear
            showSearch={{ treeNodeFilterProp: 'title' }}
            placeholder={t('permissions:menu')}
            aria-label={t('permissions:menu')}
            style={{ width: 200 }}
            data-testid="filter-menuId"
          />
        </Form.Item>
      </FilterBar>
      <DataTable<PermissionDto>
        tableId="permissions"
        columns={columns}
        data-testid="table-permission"
        {...table.tableProps(data, isFetching)}
      />
      <PermissionForm
        open={crud.open}
        permission={crud.row}
        menuTree={menuTree}
        onCancel={crud.close}
        onSubmit={crud.save}
      />
    </Card>
  );
}
