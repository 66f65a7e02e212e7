import { useState } from 'react';
import { Button, Card, Form, Input, Select, Space, Tag, Tooltip } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { STOCK_STATES, STORE_STATUSES, storeRoutes } from '@iot/contract/plain';
import type { StockCounts, StoreDto, StoreStatus } from '@iot/contract';
import { usePermission } from '../../lib/session';
import { currentLanguage } from '../../lib/i18n';
import { downloadFile } from '../../lib/download';
import { useServerTable } from '../../lib/use-server-table';
import type { FilterSpec } from '../../lib/use-list-params';
import { AddButton, DeleteLink, RowLink } from '../../components/ListActions';
import { FilterBar } from '../../components/FilterBar';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { SheetImportDialog } from '../../components/SheetImportDialog';
import { useDeleteStores, useInvalidateStores, useStoreList, type StoreListParams, type StoreSort } from './api';
import { StoreFormModal } from './StoreFormModal';
import { StockDrawer } from './StockDrawer';
import { STATUS_COLORS, STOCK_COLORS } from './labels';

type Filters = Pick<StoreListParams, 'q' | 'status'>;
const STORE_FILTERS: FilterSpec<Filters> = { q: 'string', status: 'string' };

/** A store's stock by state: one tag per state it has packs in. */
export function StockTags({ stock }: { stock: StockCounts }) {
  const { t } = useTranslation();
  if (stock.total === 0) return <>{t('stores:stock.none')}</>;
  return (
    <Space size={[0, 4]} wrap data-testid="stock-tags">
      {STOCK_STATES.filter((s) => stock[s] > 0).map((s) => (
        <Tag key={s} color={STOCK_COLORS[s]} data-testid={`stock-${s}`}>
          {t(`stores:stockStates.${s}`)} {stock[s]}
        </Tag>
      ))}
    </Space>
  );
}

/** /store/index (store:list): outlets of the caller's line with their stock, server-paged. */
export default function StoreListPage() {
  const { t } = useTranslation();
  const canEdit = usePermission('store:edit');
  const table = useServerTable<Filters, StoreSort>({ sort: 'createdAt', order: 'desc', url: STORE_FILTERS });
  const list = useStoreList(table.params);
  const remove = useDeleteStores();
  const invalidate = useInvalidateStores();
  const [importing, setImporting] = useState(false);
  const [form, setForm] = useState<{ open: boolean; store: StoreDto | null }>({ open: false, store: null });
  const [stockOf, setStockOf] = useState<number | null>(null);
  const stockStore = list.data?.items.find((s) => s.id === stockOf) ?? null;

  const columns: DataColumn<StoreDto>[] = [
    {
      title: t('stores:fields.name'),
      dataIndex: 'name',
      ...table.sortable('name', true),
      width: 180,
      render: (v: string, s) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setStockOf(s.id)} data-testid={`store-open-${s.code}`}>
          {v}
        </Button>
      ),
    },
    { title: t('stores:fields.code'), dataIndex: 'code', ...table.sortable('code', true), width: 120, phone: true },
    {
      title: t('stores:fields.status'),
      dataIndex: 'status',
      ...table.sortable('status', true),
      width: 100,
      phone: true,
      render: (s: StoreStatus) => <Tag color={STATUS_COLORS[s]}>{t(`stores:status.${s}`)}</Tag>,
    },
    { title: t('stores:columns.stock'), key: 'stock', width: 300, phone: true, render: (_, s) => <StockTags stock={s.stock} /> },
    { title: t('stores:fields.owner'), dataIndex: 'ownerName', key: 'ownerName', width: 120, optional: true },
    {
      title: t('stores:fields.address'),
      dataIndex: 'address',
      key: 'address',
      width: 200,
      optional: true,
      render: (v: string, s) =>
        s.lng !== null && s.lat !== null ? (
          <Tooltip title={`${s.lng}, ${s.lat}`}>
            <span>{v || `${s.lng}, ${s.lat}`}</span>
          </Tooltip>
        ) : (
          v || t('common:empty')
        ),
    },
    { title: t('stores:fields.phone'), dataIndex: 'phone', key: 'phone', width: 130, optional: true },
    { title: t('stores:fields.openingHours'), dataIndex: 'openingHours', key: 'openingHours', width: 120, optional: true },
    {
      title: t('crud:actions'),
      key: 'actions',
      fixed: 'end',
      width: 200,
      render: (_, s) => (
        <Space size={0}>
          <RowLink testId={`store-stock-${s.id}`} onClick={() => setStockOf(s.id)}>
            {t('stores:stock.open')}
          </RowLink>
          {s.can.edit && (
            <RowLink testId={`store-edit-${s.id}`} onClick={() => setForm({ open: true, store: s })}>
              {t('crud:edit')}
            </RowLink>
          )}
          {s.can.delete && <DeleteLink testId={`store-delete-${s.id}`} title={t('stores:deleteConfirm', { name: s.name })} onConfirm={() => remove.mutateAsync([s.id])} />}
        </Space>
      ),
    },
  ];

  return (
    <Card title={t('stores:title')} data-testid="store-list-page">
      <FilterBar<Filters>
        onSearch={(f) => table.search(f)}
        values={table.filters}
        extra={
          <>
            <Button
              icon={<DownloadOutlined />}
              onClick={() => {
                const { page: _p, limit: _l, ...q } = table.params;
                void downloadFile(storeRoutes.export, { ...q, lang: currentLanguage() }, 'stores.xlsx').catch(() => undefined);
              }}
              data-testid="btn-export"
            >
              {t('stores:export')}
            </Button>
            {canEdit && (
              <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="btn-import">
                {t('stores:import.title')}
              </Button>
            )}
            {canEdit && <AddButton onClick={() => setForm({ open: true, store: null })}>{t('stores:add')}</AddButton>}
          </>
        }
      >
        <Form.Item name="q">
          <Input allowClear maxLength={64} placeholder={t('stores:filters.q')} aria-label={t('stores:filters.q')} style={{ width: 260 }} data-testid="filter-q" />
        </Form.Item>
        <Form.Item name="status">
          <Select allowClear placeholder={t('stores:fields.status')} aria-label={t('stores:fields.status')} style={{ width: 130 }} options={STORE_STATUSES.map((s) => ({ value: s, label: t(`stores:status.${s}`) }))} />
        </Form.Item>
      </FilterBar>
      <DataTable<StoreDto> tableId="stores" data-testid="table-stores" columns={columns} {...table.tableProps(list.data, list.isFetching)} />
      <StoreFormModal open={form.open} store={form.store} onClose={() => setForm({ open: false, store: null })} />
      <SheetImportDialog
        open={importing}
        onClose={() => setImporting(false)}
        endpoints={{ template: storeRoutes.importTemplate, import: storeRoutes.import }}
        templateName="stores-template.xlsx"
        ns="stores"
        onImported={invalidate}
        testId="store-import"
      />
      <StockDrawer store={stockStore} canEdit={canEdit} onClose={() => setStockOf(null)} />
    </Card>
  );
}
