import { useState } from 'react';
import { Button, Drawer, Select, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { STOCK_STATES } from '@iot/contract/plain';
import type { StockItem, StockState, StoreDto } from '@iot/contract';
import { useDeviceSearch } from '../../lib/use-device-search';
import { useIsMobile } from '../../lib/use-mobile';
import { ConfirmLink, RowLink } from '../../components/ListActions';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { useStock, useStockChange } from './api';
import { STOCK_COLORS } from './labels';

/** Packs to stock: SN or name (GET /device/seachList), several at once. */
function PackPicker({ value, onChange }: { value: number[]; onChange: (v: number[]) => void }) {
  const { t } = useTranslation();
  const { setQ, text, devices } = useDeviceSearch();
  return (
    <Select<number[]>
      mode="multiple"
      showSearch={{ filterOption: false, onSearch: setQ }}
      value={value}
      onChange={onChange}
      options={devices.map((d) => ({ value: d.id, label: `${d.name} (${d.sn})` }))}
      placeholder={t('stores:stock.pick')}
      aria-label={t('stores:stock.pick')}
      notFoundContent={text ? t('common:empty') : t('stores:stock.pickHint')}
      style={{ minWidth: 260, flex: 1 }}
      data-testid="stock-pick"
    />
  );
}

/** One store's packs by stock state (store:list), stocked and taken out with store:edit. */
export function StockDrawer({ store, canEdit, onClose }: { store: StoreDto | null; canEdit: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const [state, setState] = useState<StockState | undefined>();
  const [page, setPage] = useState({ page: 1, limit: 20 });
  const [picked, setPicked] = useState<number[]>([]);
  const stock = useStock(store ? { storeId: store.id, state, ...page } : undefined);
  const change = useStockChange();
  const columns: DataColumn<StockItem>[] = [
    { title: t('stores:stock.sn'), dataIndex: 'sn', key: 'sn', width: 150 },
    { title: t('stores:stock.name'), dataIndex: 'name', key: 'name', width: 140, optional: true },
    {
      title: t('stores:stock.state'),
      dataIndex: 'state',
      key: 'state',
      width: 150,
      phone: true,
      render: (s: StockState, r) => (
        <Tag color={STOCK_COLORS[s]}>
          {t(`stores:stockStates.${s}`)}
          {r.fault ? ` · ${t(`stores:faults.${r.fault}`)}` : ''}
        </Tag>
      ),
    },
    { title: 'SOC', dataIndex: 'soc', key: 'soc', width: 80, phone: true, render: (v: number | null) => (v === null ? t('common:empty') : `${Math.round(v)}%`) },
    {
      title: t('crud:actions'),
      key: 'actions',
      width: 160,
      render: (_, r) =>
        canEdit && (
          <Space size={0}>
            {r.fault && (
              <RowLink testId={`stock-clear-${r.deviceId}`} onClick={() => change.mutate({ op: 'clear', deviceIds: [r.deviceId] })}>
                {t('stores:stock.clear')}
              </RowLink>
            )}
            {r.state !== 'rented' && (
              <ConfirmLink testId={`stock-out-${r.deviceId}`} title={t('stores:stock.outConfirm', { sn: r.sn })} onConfirm={() => change.mutateAsync({ op: 'unstock', deviceIds: [r.deviceId] })}>
                {t('stores:stock.out')}
              </ConfirmLink>
            )}
          </Space>
        ),
    },
  ];
  return (
    <Drawer open={!!store} onClose={onClose} title={store ? t('stores:stock.title', { name: store.name }) : ''} size={mobile ? '100%' : 720} destroyOnHidden data-testid="stock-drawer">
      {canEdit && store && (
        <Space.Compact style={{ display: 'flex', marginBottom: 12 }}>
          <PackPicker value={picked} onChange={setPicked} />
          <Button
            type="primary"
            disabled={picked.length === 0}
            loading={change.isPending}
            data-testid="stock-add"
            onClick={() => change.mutate({ op: 'stock', storeId: store.id, deviceIds: picked }, { onSuccess: () => setPicked([]) })}
          >
            {t('stores:stock.add')}
          </Button>
        </Space.Compact>
      )}
      <Select
        allowClear
        value={state}
        onChange={(v) => {
          setState(v);
          setPage((p) => ({ ...p, page: 1 }));
        }}
        placeholder={t('stores:stock.state')}
        aria-label={t('stores:stock.state')}
        options={STOCK_STATES.map((s) => ({ value: s, label: t(`stores:stockStates.${s}`) }))}
        style={{ width: 160, marginBottom: 12 }}
        data-testid="stock-state"
      />
      <DataTable<StockItem>
        tableId="store-stock"
        data-testid="table-stock"
        rowKey="deviceId"
        columns={columns}
        loading={stock.isFetching}
        dataSource={stock.data?.items ?? []}
        pagination={{ current: page.page, pageSize: page.limit, total: stock.data?.total ?? 0, onChange: (p, l) => setPage({ page: p, limit: l }) }}
        restoreScroll={false}
      />
    </Drawer>
  );
}
