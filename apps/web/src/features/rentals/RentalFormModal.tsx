import { Checkbox, DatePicker, Form, Input, InputNumber, Radio, Select, type FormInstance } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { CURRENCIES, STORE_LIMITS } from '@iot/contract/plain';
import type { Currency, RentalKind } from '@iot/contract';
import { FormModal } from '../../components/FormModal';
import { useAvailablePacks, useCreateRental, useStoreOptions } from './api';
import { minorDigits, toMinor } from './money';

interface Values {
  kind: RentalKind;
  storeId: number;
  deviceId: number;
  customerName: string;
  customerPhone: string;
  idCard?: string;
  email?: string;
  currency: Currency;
  deposit?: number;
  pricing: 'day' | 'total';
  price: number;
  startAt?: Dayjs;
  dueAt?: Dayjs;
  reserve?: boolean;
  remark?: string;
}

/** A rental or a sale of a pack that is available at one of the caller's stores (rent:edit). */
export function RentalFormModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateRental();
  return (
    <FormModal<Values>
      open={open}
      title={t('rentals:add')}
      initialValues={{ kind: 'rent', currency: 'CNY', pricing: 'day', deposit: 0, dueAt: dayjs().add(7, 'day').endOf('day') }}
      onCancel={onClose}
      width={720}
      testId="rental-form"
      onSubmit={async (v) => {
        const rent = v.kind === 'rent';
        await create.mutateAsync({
          kind: v.kind,
          storeId: v.storeId,
          deviceId: v.deviceId,
          customerName: v.customerName,
          customerPhone: v.customerPhone,
          idCard: v.idCard || undefined,
          email: v.email ?? '',
          currency: v.currency,
          depositCents: toMinor(v.deposit ?? 0, v.currency),
          pricePerDayCents: rent && v.pricing === 'day' ? toMinor(v.price, v.currency) : null,
          totalPriceCents: !rent || v.pricing === 'total' ? toMinor(v.price, v.currency) : null,
          startAt: v.startAt?.toISOString(),
          dueAt: rent ? v.dueAt?.toISOString() : undefined,
          reserve: rent && !!v.reserve,
          remark: v.remark ?? '',
        });
        onClose();
      }}
    >
      {(form) => <FormBody form={form} />}
    </FormModal>
  );
}

/** The form's fields: the packs offered are the chosen store's available ones; amounts in the currency's unit. */
function FormBody({ form }: { form: FormInstance<Values> }) {
  const { t } = useTranslation();
  const storeOptions = useStoreOptions();
  const kind: RentalKind = Form.useWatch('kind', form) ?? 'rent';
  const currency: Currency = Form.useWatch('currency', form) ?? 'CNY';
  const packList = useAvailablePacks(Form.useWatch('storeId', form));
  const stores = (storeOptions.data?.items ?? []).filter((s) => s.status === 'open').map((s) => ({ value: s.id, label: `${s.name} (${s.code})` }));
  const packs = (packList.data?.items ?? []).map((p) => ({ value: p.deviceId, label: `${p.sn}${p.soc === null ? '' : ` · ${Math.round(p.soc)}%`}` }));
  const money = { min: 0, precision: minorDigits(currency), style: { width: '100%' } };
  const grid = { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))', columnGap: 16 } as const;
  const required = (key: string) => [{ required: true, message: t(key) }];
  return (
    <>
      <Form.Item name="kind" label={t('rentals:fields.kind')}>
        <Radio.Group options={[{ value: 'rent', label: t('rentals:kinds.rent') }, { value: 'sale', label: t('rentals:kinds.sale') }]} optionType="button" />
      </Form.Item>
      <div style={grid}>
        <Form.Item name="storeId" label={t('rentals:fields.store')} rules={required('rentals:form.storeRequired')}>
          <Select options={stores} showSearch={{ optionFilterProp: 'label' }} data-testid="rental-store" />
        </Form.Item>
        <Form.Item name="deviceId" label={t('rentals:fields.pack')} rules={required('rentals:form.packRequired')} tooltip={t('rentals:form.packHint')}>
          <Select options={packs} showSearch={{ optionFilterProp: 'label' }} notFoundContent={t('rentals:form.noPacks')} data-testid="rental-pack" />
        </Form.Item>
        <Form.Item name="customerName" label={t('rentals:fields.customer')} rules={required('rentals:form.customerRequired')}>
          <Input maxLength={STORE_LIMITS.customerName} data-testid="rental-customer" />
        </Form.Item>
        <Form.Item name="customerPhone" label={t('rentals:fields.phone')} rules={[...required('rentals:form.phoneRequired'), { pattern: /^[0-9+\-() ]{3,}$/, message: t('rentals:form.phonePattern') }]}>
          <Input maxLength={STORE_LIMITS.phone} data-testid="rental-phone" />
        </Form.Item>
        <Form.Item name="idCard" label={t('rentals:fields.idCard')} tooltip={t('rentals:form.idCardHint')} rules={[{ pattern: /^[A-Za-z0-9]{6,}$/, message: t('rentals:form.idCardPattern') }]}>
          <Input maxLength={STORE_LIMITS.idCard} autoComplete="off" />
        </Form.Item>
        <Form.Item name="email" label={t('rentals:fields.email')} rules={[{ type: 'email', message: t('rentals:form.emailPattern') }]}>
          <Input maxLength={STORE_LIMITS.email} />
        </Form.Item>
        <Form.Item name="currency" label={t('rentals:fields.currency')}>
          <Select options={CURRENCIES.map((c) => ({ value: c, label: c }))} />
        </Form.Item>
        {kind === 'rent' && (
          <Form.Item name="deposit" label={t('rentals:fields.deposit')}>
            <InputNumber {...money} />
          </Form.Item>
        )}
        {kind === 'rent' && (
          <Form.Item name="pricing" label={t('rentals:fields.pricing')}>
            <Radio.Group options={[{ value: 'day', label: t('rentals:pricing.day') }, { value: 'total', label: t('rentals:pricing.total') }]} />
          </Form.Item>
        )}
        <Form.Item name="price" label={kind === 'rent' ? t('rentals:fields.price') : t('rentals:fields.salePrice')} rules={required('rentals:form.priceRequired')}>
          <InputNumber {...money} data-testid="rental-price" />
        </Form.Item>
        <Form.Item name="startAt" label={t('rentals:fields.startAt')} tooltip={t('rentals:form.startHint')}>
          <DatePicker showTime style={{ width: '100%' }} />
        </Form.Item>
        {kind === 'rent' && (
          <Form.Item name="dueAt" label={t('rentals:fields.dueAt')} rules={required('rentals:form.dueRequired')}>
            <DatePicker showTime style={{ width: '100%' }} data-testid="rental-due" />
          </Form.Item>
        )}
      </div>
      {kind === 'rent' && (
        <Form.Item name="reserve" valuePropName="checked">
          <Checkbox>{t('rentals:form.reserve')}</Checkbox>
        </Form.Item>
      )}
      <Form.Item name="remark" label={t('rentals:fields.remark')}>
        <Input.TextArea maxLength={STORE_LIMITS.remark} rows={2} />
      </Form.Item>
    </>
  );
}
