import type { HTMLAttributes } from 'react';
import { DeleteOutlined, PlusOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Popconfirm, Space, Table, Tag, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { DeviceTypeDto } from '@iot/contract';
import { usePermission } from '../../app/session';
import { useRouteTable } from '../../app/route-table';
import { feedbackMessage } from '../../lib/feedback';
import { parseTime } from '../../lib/format';
import { ApiError, describeError, reportError } from '../../lib/http';
import { useRepeatSearch } from '../../lib/use-repeat-search';
import { useServerTable } from '../../lib/use-server-table';
import { currentLanguage } from '../../lib/i18n';
import { useDeleteDeviceType, useDeviceTypeList, type DeviceTypeFilters, type DeviceTypeSort } from './api';
import { localName } from './localize';
import { useIsSuperAdmin } from './shared';

type Filters = DeviceTypeFilters;

/** §2 /device/type: the server-paged list of device types with their settings pages. */
export default function DeviceTypeListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [filterForm] = Form.useForm<Filters>();
  const table = useServerTable<Filters, DeviceTypeSort>({ sort: 'id', order: 'desc' });
  const { data, isFetching } = useDeviceTypeList(table.params);
  const remove = useDeleteDeviceType();
  const routes = useRouteTable();
  const isSuper = useIsSuperAdmin();
  const canAdd = usePermission('devicetype:add');
  const canEdit = usePermission('devicetype:edit');
  const canDelete = usePermission('devicetype:delete');
  // The hidden settings routes exist only when the menu tree grants them to this user.
  const has = (path: string) => routes.byPath.has(path);

  const repeat = useRepeatSearch();
  const onSearch = (values: Filters) => {
    const trimmed: Filters = {};
    if (values.name?.trim()) trimmed.name = values.name.trim();
    if (values.code?.trim()) trimmed.code = values.code.trim();
    repeat(trimmed);
    table.search(trimmed);
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

  const columns: TableColumnsType<DeviceTypeDto> = [
    {
      title: t('devicetypes:fields.code'),
      dataIndex: 'code',
      key: 'code',
      sorter: true,
      sortOrder: table.sortOrderOf('code'),
      render: (code: string) => <Tag color="geekblue">{code}</Tag>,
    },
    {
      title: t('devicetypes:fields.name'),
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      sortOrder: table.sortOrderOf('name'),
      render: (_: string, row) => localName(row, currentLanguage()),
    },
    {
      title: t('devicetypes:fields.remarks'),
      dataIndex: 'remarks',
      key: 'remarks',
      ellipsis: { showTitle: true },
      // Built-in types come without a remark: they are described in the UI language.
      render: (v: string, row) => v || (row.builtin ? t('devicetypes:builtinRemark') : t('common:empty')),
    },
    {
      title: t('devicetypes:fields.recordTrack'),
      dataIndex: 'recordTrack',
      key: 'recordTrack',
      align: 'center',
      render: (v: boolean) => (
        <Tag color={v ? 'green' : 'default'}>{v ? t('devicetypes:yes') : t('devicetypes:no')}</Tag>
      ),
    },
    {
      title: t('devicetypes:fields.builtin'),
      dataIndex: 'builtin',
      key: 'builtin',
      align: 'center',
      render: (v: boolean) =>
        v ? <Tag color="purple">{t('devicetypes:builtin')}</Tag> : <Tag>{t('devicetypes:custom')}</Tag>,
    },
    {
      title: t('devicetypes:fields.paramCount'),
      dataIndex: 'paramCount',
      key: 'paramCount',
      align: 'right',
    },
    {
      title: t('devicetypes:fields.alarmCount'),
      dataIndex: 'alarmCount',
      key: 'alarmCount',
      align: 'right',
    },
    {
      title: t('devicetypes:fields.createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      sorter: true,
      sortOrder: table.sortOrderOf('createdAt'),
      render: (v: string) => parseTime(v) ?? t('common:empty'),
    },
    {
      title: t('devicetypes:list.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => {
        const editable = !row.builtin || isSuper;
        return (
          <Space size={0} wrap>
            {canEdit && editable && has('/device/edittype') && (
              <Link to={`/device/edittype?id=${row.id}`} data-testid={`btn-edit-${row.id}`}>
                <Button type="link" size="small">
                  {t('devicetypes:list.edit')}
                </Button>
              </Link>
            )}
            {has('/device/setparam') && (
              <Link to={`/device/setparam?id=${row.id}`} data-testid={`btn-params-${row.id}`}>
                <Button type="link" size="small">
                  {t('devicetypes:list.params')}
                </Button>
              </Link>
            )}
            {has('/device/setalarm') && (
              <Link to={`/device/setalarm?id=${row.id}`} data-testid={`btn-alarms-${row.id}`}>
                <Button type="link" size="small">
                  {t('devicetypes:list.alarms')}
                </Button>
              </Link>
            )}
            {canDelete && editable && !row.builtin && (
              <Popconfirm
                title={t('devicetypes:list.deleteTitle')}
                description={t('devicetypes:list.deleteConfirm', { name: localName(row, currentLanguage()), code: row.code })}
                okText={t('common:confirm')}
                cancelText={t('common:cancel')}
                okButtonProps={{ danger: true, 'data-testid': 'btn-confirm-delete' }}
                onConfirm={() => onDelete(row)}
              >
                <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`btn-delete-${row.id}`}>
                  {t('devicetypes:list.delete')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        );
      },
    },
  ];

  return (
    <Card data-testid="devicetypes-page">
      <div style={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 12, marginBottom: 16 }}>
        <Form form={filterForm} layout="inline" onFinish={onSearch} style={{ rowGap: 8 }}>
          <Form.Item name="code" label={t('devicetypes:fields.code')}>
            <Input allowClear maxLength={32} style={{ width: 160 }} data-testid="filter-code" />
          </Form.Item>
          <Form.Item name="name" label={t('devicetypes:fields.name')}>
            <Input allowClear maxLength={64} style={{ width: 180 }} data-testid="filter-name" />
          </Form.Item>
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="btn-search">
                {t('devicetypes:list.search')}
              </Button>
              <Button
                icon={<ReloadOutlined />}
                onClick={() => {
                  filterForm.resetFields();
                  repeat({});
                  table.search({});
                }}
                data-testid="btn-reset"
              >
                {t('devicetypes:list.reset')}
              </Button>
            </Space>
          </Form.Item>
        </Form>
        {canAdd && has('/device/addtype') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/device/addtype')} data-testid="btn-add">
            {t('devicetypes:list.add')}
          </Button>
        )}
      </div>
      <Table<DeviceTypeDto>
        rowKey="id"
        size="middle"
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="table-devicetypes"
        onRow={(row) => ({ 'data-testid': `type-row-${row.code}` }) as HTMLAttributes<HTMLElement>}
        {...table.tableProps(data, isFetching)}
      />
    </Card>
  );
}
