import { Alert, Form, Input, InputNumber, Select, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { CARD_LIMITS, type PriceDto } from '@iot/contract';
import { FormModal } from '../../components/FormModal';
import { useCreateOrder, usePriceOptions, yuan } from './api';

interface Values {
  priceId: number;
  months: number;
  remarks: string;
}

/** "IoT 1GB · ¥5.00 per card and month", "1 GB add-on · 1024 MB · ¥10.00 per card". */
export function priceLabel(t: TFunction, p: PriceDto) {
  return p.kind === 'renewal'
    ? `${t('cards:orders.kinds.renewal')} · ${p.plan} · ${t('cards:prices.perMonth', { price: yuan(p.unitPriceCents) })}`
    : `${t('cards:orders.kinds.topup')} · ${p.plan} · ${p.topupMb} MB · ${t('cards:prices.perCard', { price: yuan(p.unitPriceCents) })}`;
}

/**
 * A renewal or top-up order for one or many cards (card:order), at a price of the price list:
 * the person ordering picks the plan or package, never the price. The amount is shown as the
 * form changes. `plans` (the cards' current plans) preselects their plan's renewal price.
 */
export function OrderFormModal({
  cardIds,
  plans = [],
  onClose,
  onCreated,
}: {
  cardIds: number[] | null;
  plans?: string[];
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  const { t } = useTranslation();
  const create = useCreateOrder();
  const options = usePriceOptions(cardIds !== null);
  const prices = options.data ?? [];
  const count = cardIds?.length ?? 0;
  const common = new Set(plans).size === 1 ? plans[0] : undefined;
  const preselected = prices.find((p) => p.kind === 'renewal' && p.plan === common) ?? prices.find((p) => p.kind === 'renewal') ?? prices[0];
  const open = cardIds !== null;
  return (
    <FormModal<Values>
      // Rebuilt once the prices are in, so the preselected price shows.
      key={options.isSuccess ? 'ready' : 'loading'}
      open={open}
      title={t('cards:orders.create', { count })}
      initialValues={{ priceId: preselected?.id, months: 12, remarks: '' }}
      onCancel={onClose}
      testId="order-form"
      onSubmit={async (v) => {
        const price = prices.find((p) => p.id === v.priceId);
        const res = await create.mutateAsync({
          priceId: v.priceId,
          months: price?.kind === 'renewal' ? v.months : 0,
          remarks: v.remarks,
          cardIds: cardIds ?? [],
        });
        onCreated(res.id);
      }}
    >
      {(form) => (
        <>
          {options.isSuccess && prices.length === 0 && (
            <Alert type="warning" showIcon title={t('cards:prices.noneTitle')} description={t('cards:prices.noneHint')} style={{ marginBottom: 16 }} data-testid="order-no-prices" />
          )}
          <Form.Item name="priceId" label={t('cards:prices.choose')} rules={[{ required: true, message: t('cards:prices.chooseRequired') }]}>
            <Select
              data-testid="order-price"
              loading={options.isLoading}
              options={prices.map((p) => ({ value: p.id, label: priceLabel(t, p) }))}
              aria-label={t('cards:prices.choose')}
            />
          </Form.Item>
          <Form.Item noStyle shouldUpdate>
            {() => {
              const price = prices.find((p) => p.id === form.getFieldValue('priceId'));
              return price?.kind === 'renewal' ? (
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
              const price = prices.find((p) => p.id === v.priceId);
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
