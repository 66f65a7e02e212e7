import { useMemo, useState } from 'react';
import { Card, Form, Input, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { MenuNode } from '@iot/contract';
import { MenuIcon } from '../../components/MenuIcon';
import { usePermission } from '../../lib/session';
import { FilterBar } from '../../components/FilterBar';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { AddButton } from '../../components/ListActions';
import { actionsColumn } from '../../components/RowActions';
import { useIsMobile } from '../../lib/use-mobile';
import { localizedName } from '../../lib/acl-labels';
import { useCrud } from '../../lib/use-crud';
import { currentLanguage } from '../../lib/i18n';
import { createMenu, deleteMenu, editMenu, useMenuOptions, useMenuTree, type MenuInput } from './api';
import { menuKeys } from '../../lib/query-keys';
import { MenuForm } from './MenuForm';


/** Keeps the nodes matching `keyword` (any language, url or identification) and their ancestors. */
function filterTree(nodes: MenuNode[], keyword: string): MenuNode[] {
  if (!keyword) return nodes;
  const k = keyword.toLowerCase();
  const hit = (n: MenuNode) =>
    [n.name, n.nameEn, n.nameEs, n.nameJa, n.menuUrl, n.identification].some((v) => v?.toLowerCase().includes(k));
  const out: MenuNode[] = [];
  for (const n of nodes) {
    const children = filterTree(n.children, keyword);
    if (hit(n) || children.length > 0) out.push({ ...n, children });
  }
  return out;
}

const allIds = (nodes: MenuNode[]): number[] => nodes.flatMap((n) => [n.id, ...allIds(n.children ?? [])]);

/** Leaves without a `children` array, so the table shows no expand button on them. */
function asRows(nodes: MenuNode[]): MenuNode[] {
  return nodes.map((n) => {
    const { children, ...rest } = n;
    return (children.length > 0 ? { ...rest, children: asRows(children) } : rest) as MenuNode;
  });
}

/** §2 /sys/menu: the whole menu tree; add, edit and delete with menu:* codes. */
export default function MenuPage() {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const canAdd = usePermission('menu:add');
  const canEdit = usePermission('menu:edit');
  const canDelete = usePermission('menu:delete');
  const { data: menus = [], isFetching } = useMenuTree();
  const { data: options = [] } = useMenuOptions();
  // The search is in the address like every list's (Back and the tags bar bring it back).
  const [search, setSearch] = useSearchParams();
  const keyword = search.get('keyword') ?? '';
  const setKeyword = (value: string) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set('keyword', value);
        else next.delete('keyword');
        return next;
      },
      { replace: true },
    );
  const [collapsed, setCollapsed] = useState<number[]>([]);
  /** Where an added menu goes: the top level, or below the row whose "Add child" was clicked. */
  const [parentId, setParentId] = useState(0);
  const mobile = useIsMobile();

  const rows = useMemo(() => asRows(filterTree(menus, keyword)), [menus, keyword]);
  const expanded = useMemo(() => allIds(rows).filter((id) => !collapsed.includes(id)), [rows, collapsed]);

  // The sidebar and the pickers read the same rows: both follow a change. A refused delete
  // (sub-menus, permissions) is shown by the http client.
  const crud = useCrud<MenuNode, MenuInput>({
    create: createMenu,
    edit: editMenu,
    remove: deleteMenu,
    queryKey: menuKeys.all,
    reloadsMenus: true,
  });
  const addBelow = (id: number) => {
    setParentId(id);
    crud.add();
  };

  const columns: DataColumn<MenuNode>[] = [
    {
      title: t('menus:name'),
      key: 'name',
      width: 230,
      render: (_, m) => (
        <Space size={6}>
          {m.icon && <MenuIcon name={m.icon} />}
          <span>{localizedName(m, lang)}</span>
        </Space>
      ),
    },
    { title: t('menus:menuUrl'), dataIndex: 'menuUrl', key: 'menuUrl', width: 170, phone: true },
    { title: t('menus:identification'), dataIndex: 'identification', key: 'identification', width: 190, phone: true, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
    {
      title: t('menus:jumpType'),
      dataIndex: 'jumpType',
      key: 'jumpType',
      width: 110,
      optional: true,
      render: (v: number) => <Tag color={v === 2 ? 'purple' : 'blue'}>{t(`menus:jumpTypes.${v === 2 ? 2 : 1}`)}</Tag>,
    },
    {
      title: t('menus:menuType'),
      dataIndex: 'menuType',
      key: 'menuType',
      width: 110,
      optional: true,
      render: (v: number) => t(`menus:menuTypes.${v === 1 ? 1 : 0}`),
    },
    {
      title: t('menus:sort'),
      dataIndex: 'sort',
      key: 'sort',
      width: 80,
      optional: true,
      sorter: (a, b) => a.sort - b.sort,
    },
    {
      title: t('menus:isShow'),
      dataIndex: 'isShow',
      key: 'isShow',
      width: 90,
      phone: true,
      render: (v: number) =>
        v === 0 ? <Tag>{t('menus:hidden')}</Tag> : <Tag color="success">{t('menus:shown')}</Tag>,
    },
  ];
  if (canAdd || canEdit || canDelete) {
    columns.push({
      ...actionsColumn<MenuNode>({
        title: t('crud:actions'),
        compact: mobile,
        width: 230,
        rowKey: (m) => m.id,
        actions: (m) => [
          ...(canAdd
            ? [{ key: 'add', label: t('menus:addChild'), testId: `row-add-child-${m.id}`, onClick: () => addBelow(m.id) }]
            : []),
          ...(canEdit
            ? [{ key: 'edit', label: t('crud:edit'), testId: `row-edit-${m.id}`, onClick: () => crud.edit(m) }]
            : []),
          ...(canDelete
            ? [
                {
                  key: 'delete',
                  label: t('crud:delete'),
                  danger: true,
                  testId: `row-delete-${m.id}`,
                  onClick: () => void crud.remove(m),
                  confirm: {
                    title: t('menus:deleteConfirm', { name: localizedName(m, lang) }),
                    description: (m.children?.length ?? 0) > 0 ? t('menus:deleteHasChildren') : undefined,
                  },
                },
              ]
            : []),
        ],
      }),
      key: 'actions',
      width: mobile ? 56 : 230,
    });
  }

  return (
    <Card data-testid="page-menu">
      <FilterBar<{ keyword?: string }>
        onSearch={(v) => setKeyword(v.keyword ?? '')}
        values={{ keyword: keyword || undefined }}
        extra={canAdd && <AddButton onClick={() => addBelow(0)} />}
      >
        <Form.Item name="keyword">
          <Input placeholder={t('menus:keyword')} aria-label={t('menus:keyword')} allowClear data-testid="filter-keyword" style={{ width: 260 }} />
        </Form.Item>
      </FilterBar>
      <DataTable<MenuNode>
        tableId="menus"
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={isFetching}
        pagination={false}
        data-testid="table-menu"
        expandable={{
          expandedRowKeys: expanded,
          onExpand: (open, m) => setCollapsed((c) => (open ? c.filter((id) => id !== m.id) : [...c, m.id])),
          childrenColumnName: 'children',
        }}
      />
      <MenuForm
        open={crud.open}
        menu={crud.row}
        parentId={crud.row ? 0 : parentId}
        options={options}
        onCancel={crud.close}
        onSubmit={crud.save}
      />
    </Card>
  );
}
