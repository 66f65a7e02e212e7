import { useState } from 'react';
import { Button, Card, Form, Input, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../lib/session';
import { feedbackMessage } from '../../lib/feedback';
import { formatBytes, parseTime } from '../../lib/format';
import { ApiError, describeError, reportError } from '../../lib/http';
import { currentLanguage } from '../../lib/i18n';
import { localName } from '../../lib/localize';
import { useServerTable } from '../../lib/use-server-table';
import { AddButton, DeleteLink, RowLink } from '../../components/ListActions';
import { FilterBar } from '../../components/FilterBar';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { useDeleteVersion, useTypeOptions, useVersionList, type Version, type VersionFilters, type VersionSort } from './api';
import { VersionFormModal } from './VersionFormModal';

/**
 * §2 /upgrade/version: firmware versions (name, software version, manufacturer, module, the
 * image and what it applies to), server-paged, sorted and filtered; add, edit and delete.
 * Versions published by a user above the caller are listed read-only.
 */
export default function VersionListPage() {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const canAdd = usePermission('upgrade:add');
  const canEdit = usePermission('upgrade:edit');
  const canDelete = usePermission('upgrade:delete');
  const table = useServerTable<VersionFilters, VersionSort>({
    sort: 'createdAt',
    order: 'desc',
    url: { q: 'string', manufacturer: 'string', module: 'string', typeId: 'number' },
  });
  const { data, isFetching } = useVersionList(table.params);
  const types = useTypeOptions();
  const remove = useDeleteVersion();
  const [editing, setEditing] = useState<{ open: boolean; version: Version | null }>({ open: false, version: null });

  const onDelete = async (v: Version) => {
    try {
      await remove.mutateAsync(v.id);
      feedbackMessage().success(t('upgrade:deleted', { name: v.name }));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // 409: a running campaign uses it (started since the list was read); the server says so.
      if (err.code === 40900) feedbackMessage().error({ content: describeError(err), duration: 6 });
      else reportError(err);
    }
  };

  const columns: DataColumn<Version>[] = [
    { title: t('upgrade:fields.name'), dataIndex: 'name', ...table.sortable('name', true), key: 'name', width: 180, phone: true },
    {
      title: t('upgrade:fields.softwareVersion'),
      dataIndex: 'softwareVersion',
      ...table.sortable('softwareVersion', true),
      key: 'softwareVersion',
      width: 140,
      phone: true,
      render: (v: string, row) => (
        <Space size={4} wrap>
          <Tag color="geekblue">{v}</Tag>
          {row.inUse && (
            <Tooltip title={t('upgrade:inUseHint')}>
              <Tag color="processing" data-testid={`in-use-${row.id}`}>
                {t('upgrade:inUse')}
              </Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    {
      title: t('upgrade:fields.manufacturer'),
      dataIndex: 'manufacturer',
      ...table.sortable('manufacturer', true),
      key: 'manufacturer',
      width: 130,
      render: (v: string) => v || t('common:empty'),
    },
    { title: t('upgrade:fields.module'), dataIndex: 'module', ...table.sortable('module', true), key: 'module', width: 120 },
    {
      title: t('upgrade:fields.image'),
      ...table.sortable('size', true),
      key: 'size',
      width: 260,
      render: (_, row) =>
        row.url ? (
          <Space orientation="vertical" size={0}>
            <Typography.Text ellipsis={{ tooltip: row.url }} style={{ maxWidth: 240 }} data-testid={`image-url-${row.id}`}>
              {row.url}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {row.size !== null ? `${formatBytes(row.size)} · ` : ''}
              <Typography.Text code copyable={{ text: row.sha256 ?? '' }} style={{ fontSize: 12 }}>
                {(row.sha256 ?? '').slice(0, 12)}
              </Typography.Text>
            </Typography.Text>
          </Space>
        ) : (
          <Space orientation="vertical" size={0}>
            <Typography.Text ellipsis={{ tooltip: row.fileName }} style={{ maxWidth: 240 }} data-testid={`image-file-${row.id}`}>
              {row.fileName}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              <span data-testid={`image-size-${row.id}`}>{formatBytes(row.size ?? 0)}</span>
              {' · '}
              <Typography.Text
                code
                copyable={{ text: row.sha256 ?? '', tooltips: [t('upgrade:copySha'), t('upgrade:copied')] }}
                style={{ fontSize: 12 }}
                data-testid={`image-sha-${row.id}`}
              >
                {(row.sha256 ?? '').slice(0, 12)}
              </Typography.Text>
            </Typography.Text>
          </Space>
        ),
    },
    {
      title: t('upgrade:fields.appliesTo'),
      key: 'appliesTo',
      width: 220,
      render: (_, row) =>
        row.types.length === 0 && row.models.length === 0 ? (
          <Typography.Text type="secondary">{t('upgrade:anyDevice')}</Typography.Text>
        ) : (
          <Space size={[4, 4]} wrap>
            {row.types.map((ty) => (
              <Tag key={`t${ty.id}`} color="blue">
                {localName(ty, lang)}
              </Tag>
            ))}
            {row.models.map((m) => (
              <Tag key={`m${m}`}>{m}</Tag>
            ))}
          </Space>
        ),
    },
    {
      title: t('upgrade:fields.info'),
      dataIndex: 'info',
      key: 'info',
      width: 200,
      optional: true,
      render: (v: string) =>
        v ? (
          <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 200 }}>
            {v}
          </Typography.Text>
        ) : (
          t('common:empty')
        ),
    },
    {
      title: t('upgrade:fields.createdAt'),
      dataIndex: 'createdAt',
      ...table.sortable('createdAt', true),
      key: 'createdAt',
      width: 170,
      render: (v: string, row) => (
        <Space orientation="vertical" size={0}>
          <span>{parseTime(v) ?? ''}</span>
          {row.createdByName && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {row.createdByName}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('upgrade:actions'),
      key: 'actions',
      fixed: 'end',
      width: 180,
      render: (_, row) => (
        <Space size={0} wrap>
          {canEdit && row.can.edit && (
            <RowLink testId={`row-edit-${row.id}`} onClick={() => setEditing({ open: true, version: row })}>
              {t('crud:edit')}
            </RowLink>
          )}
          {canDelete && row.can.delete && (
            <DeleteLink
              title={t('upgrade:deleteTitle')}
              description={t('upgrade:deleteConfirm', { name: row.name, version: row.softwareVersion })}
              onConfirm={() => onDelete(row)}
              icon={<DeleteOutlined />}
              testId={`row-delete-${row.id}`}
            />
          )}
          {canDelete && row.can.edit && row.inUse && (
            <Tooltip title={t('upgrade:inUseHint')}>
              <Button type="link" size="small" danger disabled icon={<DeleteOutlined />} data-testid={`row-delete-${row.id}`}>
                {t('crud:delete')}
              </Button>
            </Tooltip>
          )}
          {!row.can.edit && (
            <Tooltip title={t('upgrade:publishedHint')}>
              <Tag data-testid={`published-${row.id}`}>{t('upgrade:published')}</Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card title={t('upgrade:title')} data-testid="version-list-page">
      <FilterBar<VersionFilters>
        onSearch={table.search}
        values={table.filters}
        extra={canAdd && <AddButton onClick={() => setEditing({ open: true, version: null })}>{t('upgrade:add')}</AddButton>}
        testId="version-filters"
      >
        <Form.Item name="q">
          <Input
            allowClear
            maxLength={64}
            placeholder={t('upgrade:filters.q')}
            aria-label={t('upgrade:filters.q')}
            style={{ width: 220 }}
            data-testid="filter-q"
          />
        </Form.Item>
        <Form.Item name="manufacturer">
          <Input
            allowClear
            maxLength={64}
            placeholder={t('upgrade:fields.manufacturer')}
            aria-label={t('upgrade:fields.manufacturer')}
            style={{ width: 160 }}
            data-testid="filter-manufacturer"
          />
        </Form.Item>
        <Form.Item name="module">
          <Input allowClear maxLength={64} placeholder={t('upgrade:fields.module')} aria-label={t('upgrade:fields.module')} style={{ width: 140 }} data-testid="filter-module" />
        </Form.Item>
        <Form.Item name="typeId">
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('upgrade:filters.type')}
            aria-label={t('upgrade:filters.type')}
            style={{ width: 180 }}
            options={(types.data ?? []).map((ty) => ({ value: ty.id, label: localName(ty, lang) }))}
            data-testid="filter-type"
          />
        </Form.Item>
      </FilterBar>
      <DataTable<Version> tableId="firmware-versions" data-testid="table-versions" columns={columns} {...table.tableProps(data, isFetching)} />
      <VersionFormModal open={editing.open} version={editing.version} onClose={() => setEditing({ open: false, version: null })} />
    </Card>
  );
}
