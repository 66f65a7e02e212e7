import { Alert, Form, Input, InputNumber, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CARD_LIMITS } from '@iot/contract/plain';
import type { OrderDto } from '@iot/contract';
import { FormModal } from '../../components/FormModal';
import { useCreateOrder, useEditOrder, usePriceOptions, yuan } from './api';
import { priceLabel } from './labels';

interface Values {
  priceId?: number;
  months: number;
  remarks: string;
}

/**
 * A renewal or top-up order for one or many cards (card:order), at a price of the price list:
 * the person ordering picks the plan or package, never the price. The amount is shown as the
 * form changes. `plans` (the cards' current plans) preselects their plan's renewal price. With
 * `order`, an unpaid order's terms are changed instead: another price of its kind, months,
 * remarks (a QR code already shown is closed by the server and the order gets a new number).
 */
export function OrderFormModal({
  cardIds,
  plans = [],
  order = null,
  onClose,
  onCreated,
}: {
  cardIds: number[] | null;
  plans?: string[];
  order?: OrderDto | null;
  onClose: () => void;
  onCreated?: (id: number) => void;
}) {
  const { t } = useTranslation();
  const create = useCreateOrder();
  const edit = useEditOrder();
  const open = cardIds !== null || order !== null;
  const options = usePriceOptions(open);
  const prices = (options.data ?? []).filter((p) => !order || p.kind === order.kind);
  const count = order ? order.cardCount : (cardIds?.length ?? 0);
  const common = new Set(plans).size === 1 ? plans[0] : undefined;
  const preselected = order
    ? prices.find((p) => p.id === order.priceId)
    : (prices.find((p) => p.kind === 'renewal' && p.plan === common) ?? prices.find((p) => p.kind === 'renewal') ?? prices[0]);
  // The order's own terms while no other price is chosen (its price may be gone from the list).
  const current = order ? { kind: order.kind, unitPriceCents: order.unitPriceCents } : undefined;
  return (
    <FormModal<Values>
      // Rebuilt once the prices are in, so the preselected price shows.
      key={`${order?.id ?? 'new'}-${options.isSuccess ? 'ready' : 'loading'}`}
      open={open}
      title={order ? t('cards:orders.edit', { orderNo: order.orderNo }) : t('cards:orders.create', { count })}
      initialValues={{ priceId: preselected?.id, months: order?.months || 12, remarks: order?.remarks ?? '' }}
      onCancel={onClose}
      testId="order-form"
      onSubmit={async (v) => {
        const price = prices.find((p) => p.id === v.priceId);
        const kind = price?.kind ?? current?.kind;
        if (order) {
          await edit.mutateAsync({
            id: order.id,
            ...(v.priceId !== undefined && v.priceId !== order.priceId ? { priceId: v.priceId } : {}),
            ...(kind === 'renewal' ? { months: v.months } : {}),
            remarks: v.remarks,
          });
          onClose();
          return;
        }
        const res = await create.mutateAsync({
          priceId: v.priceId!,
          months: kind === 'renewal' ? v.months : 0,
          remarks: v.remarks,
          cardIds: cardIds ?? [],
        });
        onCreated?.(res.id);
      }}
    >
      {(form) => (
        <>
          {options.isSuccess && prices.length === 0 && !order && (
            <Alert type="warning" showIcon title={t('cards:prices.noneTitle')} description={t('cards:prices.noneHint')} style={{ marginBottom: 16 }} data-testid="order-no-prices" />
          )}
          <Form.Item
            name="priceId"
            label={t('cards:prices.choose')}
            rules={order ? [] : [{ required: true, message: t('cards:prices.chooseRequired') }]}
          >
            <Select
              data-testid="order-price"
              loading={options.isLoading}
              placeholder={order ? t('cards:prices.current', { plan: order.plan, price: yuan(order.unitPriceCents) }) : undefined}
              options={prices.map((p) => ({ value: p.id, label: priceLabel(t, p) }))}
              aria-label={t('cards:prices.choose')}
            />
          </Form.Item>
          <Form.Item noStyle shouldUpdate>
            {() => {
              const price = prices.find((p) => p.id === form.getFieldValue('priceId'));
              return (price?.kind ?? current?.kind) === 'renewal' ? (
                <Form.Item name="months" label={t('cards:orders.months')} rules={[{ required: true, message: t('cards:orders.monthsRequired') }]}>
                  <InputNumber min={1} max={CARD_LIMITS.months} precision={0} style={{ width: '100%' }} data-testid="order-months" />
                </Form.Item>
              ) : null;
            }}
          </Form.Item>
          <Form.Item name="remarks" label={t('cards:fields.remarks')}>
            <Input.TextArea maxLength={CARD_LIMITS.remarks} rows={2} />
          </Form.Item>
          <Form.Item noStyle shouldUpdate>
            {() => {
              const v = form.getFieldsValue(true) as Values;
              const price = prices.find((p) => p.id === v.priceId) ?? current;
              const cents = price ? price.unitPriceCents * count * (price.kind === 'renewal' ? v.months || 0 : 1) : 0;
              return (
                <Typography.Text strong data-testid="order-amount">
                  {t('cards:orders.amount')}: {yuan(cents)}
                </Typography.Text>
              );
            }}
          </Form.Item>
        </>
      )}
    </FormModal>
  );
}
