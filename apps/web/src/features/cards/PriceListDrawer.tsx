import { useState } from 'react';
import { Drawer, Form, Input, InputNumber, Radio, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import { CARD_LIMITS } from '@iot/contract/plain';
import type { OrderKind, PriceDto } from '@iot/contract';
import { parseTime } from '../../lib/format';
import { useServerTable } from '../../lib/use-server-table';
import { AddButton, DeleteLink, RowLink } from '../../components/ListActions';
import { FilterBar } from '../../components/FilterBar';
import { FormModal } from '../../components/FormModal';
import { useDeletePrices, usePriceList, useSavePrice, type PriceListParams, type PriceSort } from './api';
import { orderKindOptions, unitPrice } from './labels';

type Filters = Pick<PriceListParams, 'q' | 'kind'>;

interface Values {
  kind: OrderKind;
  plan: string;
  topupMb: number;
  /** Yuan in the form, cents to the API. */
  unitPrice: number;
  enabled: boolean;
  remarks: string;
}

/** Add or edit one price; the kind of an existing price stays (orders were made with it). */
function PriceFormModal({ price, open, onClose }: { price: PriceDto | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSavePrice();
  return (
    <FormModal<Values>
      open={open}
      title={price ? t('cards:prices.edit') : t('cards:prices.add')}
      initialValues={
        price
          ? { ...price, unitPrice: price.unitPriceCents / 100 }
          : { kind: 'renewal', plan: '', topupMb: 1024, unitPrice: undefined, enabled: true, remarks: '' }
      }
      onCancel={onClose}
      testId="price-form"
      onSubmit={async (v) => {
        await save.mutateAsync({
          id: price?.id,
          body: {
            kind: v.kind,
            plan: v.plan,
            topupMb: v.kind === 'topup' ? v.topupMb : 0,
            unitPriceCents: Math.round(v.unitPrice * 100),
            enabled: v.enabled,
            remarks: v.remarks,
          },
        });
        onClose();
      }}
    >
      {(form) => (
        <>
          <Form.Item name="kind" label={t('cards:orders.kind')}>
            <Radio.Group disabled={!!price} options={orderKindOptions(t)} />
          </Form.Item>
          <Form.Item noStyle shouldUpdate>
            {() => {
              const topup = form.getFieldValue('kind') === 'topup';
              return (
                <>
                  <Form.Item
                    name="plan"
                    label={topup ? t('cards:prices.package') : t('cards:fields.plan')}
                    extra={topup ? undefined : t('cards:prices.planHint')}
                    rules={[{ required: true, whitespace: true, message: t('cards:prices.planRequired') }]}
                  >
                    <Input maxLength={CARD_LIMITS.plan} data-testid="price-plan" />
                  </Form.Item>
                  {topup && (
                    <Form.Item name="topupMb" label={t('cards:orders.topupMb')} rules={[{ required: true, message: t('cards:orders.topupRequired') }]}>
                      <InputNumber min={1} max={CARD_LIMITS.topupMb} precision={0} style={{ width: '100%' }} />
                    </Form.Item>
                  )}
                  <Form.Item
                    name="unitPrice"
                    label={topup ? t('cards:prices.unitTopup') : t('cards:prices.unitRenewal')}
                    rules={[{ required: true, message: t('cards:orders.priceRequired') }]}
                  >
                    <InputNumber min={0.01} max={CARD_LIMITS.unitPriceCents / 100} precision={2} prefix="¥" style={{ width: '100%' }} data-testid="price-unit" />
                  </Form.Item>
                </>
              );
            }}
          </Form.Item>
          <Form.Item name="enabled" label={t('cards:prices.enabled')} valuePropName="checked" extra={t('cards:prices.enabledHint')}>
            <Switch />
          </Form.Item>
          <Form.Item name="remarks" label={t('cards:fields.remarks')}>
            <Input.TextArea maxLength={CARD_LIMITS.remarks} rows={2} />
          </Form.Item>
        </>
      )}
    </FormModal>
  );
}

/**
 * The card price list (card:price): renewal prices per plan and month, top-up packages. Orders
 * copy a price when they are made; a change here applies to orders made afterwards.
 */
export function PriceListDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const table = useServerTable<Filters, PriceSort>({ sort: 'plan', order: 'asc' });
  const list = usePriceList(table.params, open);
  const save = useSavePrice();
  const remove = useDeletePrices();
  const [form, setForm] = useState<{ open: boolean; price: PriceDto | null }>({ open: false, price: null });

  const columns: ColumnsType<PriceDto> = [
    { title: t('cards:orders.kind'), dataIndex: 'kind', render: (k: OrderKind) => <Tag>{t(`cards:orders.kinds.${k}`)}</Tag> },
    { title: t('cards:prices.planOrPackage'), dataIndex: 'plan', ...table.sortable('plan', true) },
    { title: t('cards:orders.topupMb'), dataIndex: 'topupMb', render: (mb: number, p) => (p.kind === 'topup' ? mb : t('common:empty')) },
    {
      title: t('cards:prices.unit'),
      dataIndex: 'unitPriceCents',
      ...table.sortable('unitPriceCents', true),
      render: (c: number, p) => unitPrice(t, p.kind, c),
    },
    {
      title: t('cards:prices.enabled'),
      dataIndex: 'enabled',
      render: (on: boolean, p) => (
        <Switch
          size="small"
          checked={on}
          aria-label={t('cards:prices.enabledOf', { plan: p.plan })}
          data-testid={`price-enabled-${p.id}`}
          onChange={(checked) => void save.mutateAsync({ id: p.id, body: { enabled: checked }, silent: false }).catch(() => undefined)}
        />
      ),
    },
    { title: t('cards:fields.remarks'), dataIndex: 'remarks', ellipsis: true },
    { title: t('cards:prices.updatedAt'), dataIndex: 'updatedAt', ...table.sortable('updatedAt', true), render: (v: string) => parseTime(v) },
    {
      title: t('crud:actions'),
      key: 'actions',
      fixed: 'end',
      render: (_, p) => (
        <Space size={0}>
          <RowLink testId={`price-edit-${p.id}`} onClick={() => setForm({ open: true, price: p })}>
            {t('crud:edit')}
          </RowLink>
          <DeleteLink testId={`price-delete-${p.id}`} title={t('cards:prices.deleteConfirm', { plan: p.plan })} onConfirm={() => remove.mutateAsync([p.id])} />
        </Space>
      ),
    },
  ];

  return (
    <Drawer open={open} onClose={onClose} size={900} title={t('cards:prices.title')} destroyOnHidden data-testid="price-list">
      <Typography.Paragraph type="secondary">{t('cards:prices.intro')}</Typography.Paragraph>
      <FilterBar<Filters> onSearch={(f) => table.search(f)} extra={<AddButton testId="price-add" onClick={() => setForm({ open: true, price: null })}>{t('cards:prices.add')}</AddButton>}>
        <Form.Item name="q">
          <Input allowClear maxLength={64} placeholder={t('cards:prices.search')} aria-label={t('cards:prices.search')} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="kind">
          <Select allowClear placeholder={t('cards:orders.kind')} aria-label={t('cards:orders.kind')} style={{ width: 130 }} options={orderKindOptions(t)} />
        </Form.Item>
      </FilterBar>
      <Table<PriceDto> data-testid="table-prices" columns={columns} scroll={{ x: 'max-content' }} {...table.tableProps(list.data, list.isFetching)} />
      <PriceFormModal open={form.open} price={form.price} onClose={() => setForm({ open: false, price: null })} />
    </Drawer>
  );
}
