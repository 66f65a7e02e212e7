import { Form, Input, InputNumber, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CARD_LIMITS, ORDER_KINDS, type OrderKind } from '@iot/contract';
import { FormModal } from '../../components/FormModal';
import { useCreateOrder, yuan } from './api';

interface Values {
  kind: OrderKind;
  plan: string;
  months: number;
  topupMb: number;
  /** Yuan in the form, cents to the API. */
  unitPrice: number;
  remarks: string;
}

/** A renewal or top-up order for one or many cards (card:order); the amount is shown as it is typed. */
export function OrderFormModal({ cardIds, onClose, onCreated }: { cardIds: number[] | null; onClose: () => void; onCreated: (id: number) => void }) {
  const { t } = useTranslation();
  const create = useCreateOrder();
  const count = cardIds?.length ?? 0;
  return (
    <FormModal<Values>
      open={cardIds !== null}
      title={t('cards:orders.create', { count })}
      initialValues={{ kind: 'renewal', months: 12, topupMb: 1024, unitPrice: 5, plan: '', remarks: '' }}
      onCancel={onClose}
      testId="order-form"
      onSubmit={async (v) => {
        const res = await create.mutateAsync({
          kind: v.kind,
          plan: v.plan,
          months: v.kind === 'renewal' ? v.months : 0,
          topupMb: v.kind === 'topup' ? v.topupMb : 0,
          unitPriceCents: Math.round(v.unitPrice * 100),
          remarks: v.remarks,
          cardIds: cardIds ?? [],
        });
        onCreated(res.id);
      }}
    >
      {(form) => (
        <>
          <Form.Item name="kind" label={t('cards:orders.kind')}>
            <Radio.Group options={ORDER_KINDS.map((k) => ({ value: k, label: t(`cards:orders.kinds.${k}`) }))} />
          </Form.Item>
          <Form.Item name="plan" label={t('cards:fields.plan')}>
            <Input maxLength={CARD_LIMITS.plan} />
          </Form.Item>
          <Form.Item noStyle shouldUpdate>
            {() =>
              form.getFieldValue('kind') === 'renewal' ? (
                <Form.Item name="months" label={t('cards:orders.months')} rules={[{ required: true, message: t('cards:orders.monthsRequired') }]}>
                  <InputNumber min={1} max={CARD_LIMITS.months} precision={0} style={{ width: '100%' }} data-testid="order-months" />
                </Form.Item>
              ) : (
                <Form.Item name="topupMb" label={t('cards:orders.topupMb')} rules={[{ required: true, message: t('cards:orders.topupRequired') }]}>
                  <InputNumber min={1} max={CARD_LIMITS.topupMb} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              )
            }
          </Form.Item>
          <Form.Item name="unitPrice" label={t('cards:orders.unitPrice')} rules={[{ required: true, message: t('cards:orders.priceRequired') }]}>
            <InputNumber min={0.01} max={CARD_LIMITS.unitPriceCents / 100} precision={2} prefix="¥" style={{ width: '100%' }} data-testid="order-price" />
          </Form.Item>
          <Form.Item name="remarks" label={t('cards:fields.remarks')}>
            <Input.TextArea maxLength={CARD_LIMITS.remarks} rows={2} />
          </Form.Item>
          <Form.Item noStyle shouldUpdate>
            {() => {
              const v = form.getFieldsValue(true) as Values;
              const cents = Math.round((v.unitPrice || 0) * 100) * count * (v.kind === 'renewal' ? v.months || 0 : 1);
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
