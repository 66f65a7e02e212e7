import { useState } from 'react';
import { Button, Card, Descriptions, Drawer, Form, Input, Select, Space, Table, Tag } from 'antd';
import { TagsOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ORDER_STATUSES } from '@iot/contract/plain';
import type { OrderDto, OrderStatus } from '@iot/contract';
import { parseTime } from '../../lib/format';
import { useServerTable } from '../../lib/use-server-table';
import { ConfirmLink, DeleteLink, RowLink } from '../../components/ListActions';
import { FilterBar } from '../../components/FilterBar';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { useDeleteOrders, useEditOrder, useOrder, useOrderList, yuan, type OrderListParams, type OrderSort } from './api';
import { PayQrModal } from './PayQrModal';
import { OrderFormModal } from './OrderFormModal';
import { PriceListDrawer } from './PriceListDrawer';
import { orderKindOptions, unitPrice } from './labels';
import { usePermission } from '../../lib/session';

type Filters = Pick<OrderListParams, 'q' | 'status' | 'kind'>;

const COLORS: Record<OrderStatus, string> = { unpaid: 'gold', paid: 'success', cancelled: 'default', refunded: 'purple', expired: 'error' };

function OrderDetails({ id, onClose }: { id: number | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const order = useOrder(id);
  const o = order.data;
  return (
    <Drawer open={id !== undefined} onClose={onClose} size={640} title={o?.orderNo} destroyOnHidden>
      {o && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={t('cards:orders.kind')}>{t(`cards:orders.kinds.${o.kind}`)}</Descriptions.Item>
            <Descriptions.Item label={t('cards:orders.status')}>{t(`cards:orders.statuses.${o.status}`)}</Descriptions.Item>
            <Descriptions.Item label={t('cards:fields.plan')}>{o.plan || t('common:empty')}</Descriptions.Item>
            <Descriptions.Item label={t('cards:prices.unit')}>
              {unitPrice(t, o.kind, o.unitPriceCents)}
            </Descriptions.Item>
            <Descriptions.Item label={t('cards:orders.amount')}>{yuan(o.amountCents)}</Descriptions.Item>
            <Descriptions.Item label={t('cards:orders.createdAt')}>{parseTime(o.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('cards:orders.paidAt')}>{o.paidAt ? parseTime(o.paidAt) : t('common:empty')}</Descriptions.Item>
            <Descriptions.Item label={t('cards:orders.transactionId')} span={2}>{o.transactionId ?? t('common:empty')}</Descriptions.Item>
          </Descriptions>
          <Table
            size="small"
            rowKey="iccid"
            pagination={false}
            dataSource={o.items}
            columns={[
              { title: t('cards:fields.iccid'), dataIndex: 'iccid' },
              { title: t('cards:fields.msisdn'), dataIndex: 'msisdn' },
              { title: t('cards:orders.expiresBefore'), dataIndex: 'expiresBefore' },
              { title: t('cards:orders.expiresAfter'), dataIndex: 'expiresAfter' },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}

/** /card/orderManagement (card:order): renewals and top-ups, their payment QR codes and states. */
export default function OrderListPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const table = useServerTable<Filters, OrderSort>({ sort: 'createdAt', order: 'desc', url: { q: 'string', status: 'string', kind: 'string' } });
  const list = useOrderList(table.params);
  const edit = useEditOrder();
  const remove = useDeleteOrders();
  const [details, setDetails] = useState<number | undefined>();
  const canPrice = usePermission('card:price');
  const [pricing, setPricing] = useState(false);
  const [editing, setEditing] = useState<OrderDto | null>(null);
  const payId = Number(params.get('pay')) || undefined;
  // `?pay=` opens an order's QR code; the list's own parameters stay as they are.
  const pay = (id: number | undefined) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set('pay', String(id));
        else next.delete('pay');
        return next;
      },
      { replace: true },
    );

  const columns: DataColumn<OrderDto>[] = [
    { title: t('cards:orders.orderNo'), dataIndex: 'orderNo', key: 'orderNo', width: 190, render: (v: string, o) => <RowLink testId={`order-open-${o.id}`} onClick={() => setDetails(o.id)}>{v}</RowLink> },
    { title: t('cards:orders.kind'), dataIndex: 'kind', key: 'kind', width: 160, phone: true, render: (k: string, o) => `${t(`cards:orders.kinds.${k}`)} · ${o.kind === 'renewal' ? t('cards:orders.monthsN', { count: o.months }) : `${o.topupMb} MB`}` },
    { title: t('cards:orders.cards'), key: 'cards', width: 170, phone: true, render: (_, o) => `${o.iccids.join(', ')}${o.cardCount > o.iccids.length ? ` +${o.cardCount - o.iccids.length}` : ''}` },
    { title: t('cards:orders.amount'), dataIndex: 'amountCents', ...table.sortable('amountCents', true), key: 'amountCents', width: 110, phone: true, render: (c: number) => yuan(c) },
    { title: t('cards:orders.status'), dataIndex: 'status', key: 'status', width: 100, phone: true, render: (s: OrderStatus) => <Tag color={COLORS[s]} data-testid="order-status">{t(`cards:orders.statuses.${s}`)}</Tag> },
    { title: t('cards:orders.createdAt'), dataIndex: 'createdAt', ...table.sortable('createdAt', true), key: 'createdAt', width: 160, optional: true, render: (v: string) => parseTime(v) },
    { title: t('cards:orders.paidAt'), dataIndex: 'paidAt', ...table.sortable('paidAt', true), key: 'paidAt', width: 160, optional: true, render: (v: string | null) => (v ? parseTime(v) : t('common:empty')) },
    {
      title: t('crud:actions'),
      key: 'actions',
      fixed: 'end',
      width: 230,
      render: (_, o) => (
        <Space size={0}>
          {o.status === 'unpaid' && (
            <RowLink testId={`order-pay-${o.id}`} onClick={() => pay(o.id)}>
              {t('cards:pay.action')}
            </RowLink>
          )}
          {o.status === 'unpaid' && (
            <RowLink testId={`order-edit-${o.id}`} onClick={() => setEditing(o)}>
              {t('crud:edit')}
            </RowLink>
          )}
          {o.status === 'unpaid' && (
            <ConfirmLink testId={`order-cancel-${o.id}`} title={t('cards:orders.cancelConfirm')} onConfirm={() => edit.mutateAsync({ id: o.id, status: 'cancelled' })}>
              {t('cards:orders.cancel')}
            </ConfirmLink>
          )}
          {o.status === 'paid' && (
            <ConfirmLink testId={`order-refund-${o.id}`} title={t('cards:orders.refundConfirm')} onConfirm={() => edit.mutateAsync({ id: o.id, status: 'refunded' })}>
              {t('cards:orders.refund')}
            </ConfirmLink>
          )}
          {o.status !== 'paid' && o.status !== 'refunded' && (
            <DeleteLink testId={`order-delete-${o.id}`} title={t('cards:orders.deleteConfirm', { orderNo: o.orderNo })} onConfirm={() => remove.mutateAsync([o.id])} />
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('cards:orders.title')}
      data-testid="order-list-page"
      extra={
        canPrice && (
          <Button icon={<TagsOutlined />} onClick={() => setPricing(true)} data-testid="btn-price-list">
            {t('cards:prices.title')}
          </Button>
        )
      }
    >
      <FilterBar<Filters> onSearch={(f) => table.search(f)} values={table.filters}>
        <Form.Item name="q">
          <Input allowClear maxLength={64} placeholder={t('cards:orders.search')} aria-label={t('cards:orders.search')} style={{ width: 290 }} />
        </Form.Item>
        <Form.Item name="status">
          <Select allowClear placeholder={t('cards:orders.status')} aria-label={t('cards:orders.status')} style={{ width: 130 }} options={ORDER_STATUSES.map((s) => ({ value: s, label: t(`cards:orders.statuses.${s}`) }))} />
        </Form.Item>
        <Form.Item name="kind">
          <Select allowClear placeholder={t('cards:orders.kind')} aria-label={t('cards:orders.kind')} style={{ width: 130 }} options={orderKindOptions(t)} />
        </Form.Item>
      </FilterBar>
      <DataTable<OrderDto> tableId="orders" data-testid="table-orders" columns={columns} {...table.tableProps(list.data, list.isFetching)} />
      <OrderDetails id={details} onClose={() => setDetails(undefined)} />
      <PayQrModal orderId={payId} onClose={() => pay(undefined)} />
      <OrderFormModal cardIds={null} order={editing} onClose={() => setEditing(null)} />
      {canPrice && <PriceListDrawer open={pricing} onClose={() => setPricing(false)} />}
    </Card>
  );
}
