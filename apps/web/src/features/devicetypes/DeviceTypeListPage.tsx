import type { HTMLAttributes } from 'react';
import { DeleteOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { DeviceTypeDto } from '@iot/contract';
import { useMenuPage, usePermission } from '../../lib/session';
import { feedbackMessage } from '../../lib/feedback';
import { parseTime } from '../../lib/format';
import { ApiError, describeError, reportError } from '../../lib/http';
import { AddButton, DeleteLink } from '../../components/ListActions';
import { FilterBar } from '../../components/FilterBar';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { useServerTable } from '../../lib/use-server-table';
import { currentLanguage } from '../../lib/i18n';
import { useDeleteDeviceType, useDeviceTypeList, type DeviceTypeFilters, type DeviceTypeSort } from './api';
import { localName } from '../../lib/localize';
import { useIsSuperAdmin } from './shared';

type Filters = DeviceTypeFilters;

/** §2 /device/type: the server-paged list of device types with their settings pages. */
export default function DeviceTypeListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const table = useServerTable<Filters, DeviceTypeSort>({ sort: 'id', order: 'desc', url: { code: 'string', name: 'string' } });
  const { data, isFetching } = useDeviceTypeList(table.params);
  const remove = useDeleteDeviceType();
  const isSuper = useIsSuperAdmin();
  const canAdd = usePermission('devicetype:add');
  const canEdit = usePermission('devicetype:edit');
  const canDelete = usePermission('devicetype:delete');
  // The hidden settings routes exist only when the menu tree grants them to this user.
  const pages = {
    edit: useMenuPage('/device/edittype'),
    params: useMenuPage('/device/setparam'),
    alarms: useMenuPage('/device/setalarm'),
    add: useMenuPage('/device/addtype'),
  };

  const onDelete = async (type: DeviceTypeDto) => {
    try {
      await remove.mutateAsync(type.id);
      feedbackMessage().success(t('devicetypes:list.deleted', { name: localName(type, currentLanguage()) }));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // 409: devices still use the type; the server says how many.
      if (err.code === 40900) {
        feedbackMessage().error({ content: t('devicetypes:list.inUse', { detail: describeError(err) }), duration: 5 });
      } else reportError(err);
    }
  };

  const columns: DataColumn<DeviceTypeDto>[] = [
    {
      title: t('devicetypes:fields.code'),
      dataIndex: 'code',
      key: 'code',
      sorter: true,
      sortOrder: table.sortOrderOf('code'),
      width: 120,
      render: (code: string) => <Tag color="geekblue">{code}</Tag>,
    },
    {
      title: t('devicetypes:fields.name'),
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      sortOrder: table.sortOrderOf('name'),
      width: 180,
      phone: true,
      render: (_: string, row) => localName(row, currentLanguage()),
    },
    {
      title: t('devicetypes:fields.remarks'),
      dataIndex: 'remarks',
      key: 'remarks',
      width: 220,
      optional: true,
      ellipsis: { showTitle: true },
      // Built-in types come without a remark: they are described in the UI language.
      render: (v: string, row) => v || (row.builtin ? t('devicetypes:builtinRemark') : t('common:empty')),
    },
    {
      title: t('devicetypes:fields.recordTrack'),
      dataIndex: 'recordTrack',
      key: 'recordTrack',
      width: 110,
      optional: true,
      align: 'center',
      render: (v: boolean) => (
        <Tag color={v ? 'green' : 'default'}>{v ? t('devicetypes:yes') : t('devicetypes:no')}</Tag>
      ),
    },
    {
      title: t('devicetypes:fields.builtin'),
      dataIndex: 'builtin',
      key: 'builtin',
      width: 110,
      phone: true,
      align: 'center',
      render: (v: boolean) =>
        v ? <Tag color="purple">{t('devicetypes:builtin')}</Tag> : <Tag>{t('devicetypes:custom')}</Tag>,
    },
    {
      title: t('devicetypes:fields.paramCount'),
      dataIndex: 'paramCount',
      key: 'paramCount',
      width: 100,
      align: 'right',
    },
    {
      title: t('devicetypes:fields.alarmCount'),
      dataIndex: 'alarmCount',
      key: 'alarmCount',
      width: 100,
      align: 'right',
    },
    {
      title: t('devicetypes:fields.createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      sorter: true,
      sortOrder: table.sortOrderOf('createdAt'),
      width: 160,
      optional: true,
      render: (v: string) => parseTime(v) ?? t('common:empty'),
    },
    {
      title: t('devicetypes:list.actions'),
      key: 'actions',
      fixed: 'end',
      width: 300,
      render: (_, row) => {
        const editable = !row.builtin || isSuper;
        return (
          <Space size={0} wrap>
            {canEdit && editable && pages.edit && (
              <Link to={`/device/edittype?id=${row.id}`} data-testid={`btn-edit-${row.id}`}>
                <Button type="link" size="small">
                  {t('devicetypes:list.edit')}
                </Button>
              </Link>
            )}
            {pages.params && (
              <Link to={`/device/setparam?id=${row.id}`} data-testid={`btn-params-${row.id}`}>
                <Button type="link" size="small">
                  {t('devicetypes:list.params')}
                </Button>
              </Link>
            )}
            {pages.alarms && (
              <Link to={`/device/setalarm?id=${row.id}`} data-testid={`btn-alarms-${row.id}`}>
                <Button type="link" size="small">
                  {t('devicetypes:list.alarms')}
                </Button>
              </Link>
            )}
            {canDelete && editable && !row.builtin && (
              <DeleteLink
                title={t('devicetypes:list.deleteTitle')}
                description={t('devicetypes:list.deleteConfirm', { name: localName(row, currentLanguage()), code: row.code })}
                onConfirm={() => onDelete(row)}
                icon={<DeleteOutlined />}
                testId={`btn-delete-${row.id}`}
              >
                {t('devicetypes:list.delete')}
              </DeleteLink>
            )}
          </Space>
        );
      },
    },
  ];

  return (
    <Card data-testid="devicetypes-page">
      <FilterBar<Filters>
        onSearch={table.search}
        values={table.filters}
        extra={canAdd && pages.add && <AddButton onClick={() => navigate('/device/addtype')}>{t('devicetypes:list.add')}</AddButton>}
      >
        <Form.Item name="code" label={t('devicetypes:fields.code')}>
          <Input allowClear maxLength={32} style={{ width: 160 }} data-testid="filter-code" />
        </Form.Item>
        <Form.Item name="name" label={t('devicetypes:fields.name')}>
          <Input allowClear maxLength={64} style={{ width: 180 }} data-testid="filter-name" />
        </Form.Item>
      </FilterBar>
      <DataTable<DeviceTypeDto>
        tableId="devicetypes"
        columns={columns}
        data-testid="table-devicetypes"
        onRow={(row) => ({ 'data-testid': `type-row-${row.code}` }) as HTMLAttributes<HTMLElement>}
        {...table.tableProps(data, isFetching)}
      />
    </Card>
  );
}
