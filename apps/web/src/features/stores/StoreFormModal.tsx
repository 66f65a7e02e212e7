import { lazy, Suspense } from 'react';
import { Form, Input, InputNumber, Select, Skeleton, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { STORE_LIMITS, STORE_STATUSES } from '@iot/contract/plain';
import type { StoreDto, StoreFields } from '@iot/contract';
import { FormModal } from '../../components/FormModal';
import { UserSelect } from '../../components/UserSelect';
import { useMapSettings } from '../../lib/site';
import { useSaveStore } from './api';

const DeviceMap = lazy(() => import('../../components/map/DeviceMap'));
const MAP_HEIGHT = 220;
/** Where the picker opens for a store without a position yet. */
const DEFAULT_CENTER = { lng: 116.397, lat: 39.909 };

/** The store's position picked on the console's map (a click sets the longitude and latitude fields). */
function PositionPicker({ form }: { form: FormInstance<StoreFields> }) {
  const { t } = useTranslation();
  const settings = useMapSettings();
  const lng = Form.useWatch('lng', form);
  const lat = Form.useWatch('lat', form);
  if (!settings) return null;
  const placed = typeof lng === 'number' && typeof lat === 'number';
  return (
    <Form.Item label={t('stores:form.map')} tooltip={t('stores:form.mapHint')}>
      <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: MAP_HEIGHT }} />}>
        <DeviceMap
          lng={placed ? lng : DEFAULT_CENTER.lng}
          lat={placed ? lat : DEFAULT_CENTER.lat}
          settings={settings}
          height={MAP_HEIGHT}
          label={t('stores:form.map')}
          onPick={(x, y) => form.setFieldsValue({ lng: Math.round(x * 1e6) / 1e6, lat: Math.round(y * 1e6) / 1e6 })}
        />
      </Suspense>
    </Form.Item>
  );
}

/** Add or edit a store (store:edit): position as lng/lat fields, thresholds with their defaults. */
export function StoreFormModal({ open, store, onClose }: { open: boolean; store: StoreDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveStore();
  const initial: Partial<StoreFields> = store ?? { status: 'open', minSoc: 80, maxCellDeltaMv: 150, maxTempC: 55 };
  const half = { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))', columnGap: 16 } as const;
  return (
    <FormModal<StoreFields>
      open={open}
      title={store ? t('stores:edit') : t('stores:add')}
      initialValues={initial}
      onCancel={onClose}
      width={720}
      testId="store-form"
      onSubmit={async (v) => {
        await save.mutateAsync({ id: store?.id, fields: { ...v, lng: v.lng ?? null, lat: v.lat ?? null } });
        onClose();
      }}
    >
      {(form) => (
        <>
          <div style={half}>
            <Form.Item name="name" label={t('stores:fields.name')} rules={[{ required: true, message: t('crud:nameRequired') }]}>
              <Input maxLength={STORE_LIMITS.name} data-testid="store-name" />
            </Form.Item>
            <Form.Item
              name="code"
              label={t('stores:fields.code')}
              rules={[
                { required: true, message: t('stores:form.codeRequired') },
                { pattern: /^[A-Za-z0-9_-]+$/, message: t('stores:form.codePattern') },
              ]}
            >
              <Input maxLength={STORE_LIMITS.code} data-testid="store-code" />
            </Form.Item>
            <Form.Item name="status" label={t('stores:fields.status')}>
              <Select options={STORE_STATUSES.map((s) => ({ value: s, label: t(`stores:status.${s}`) }))} />
            </Form.Item>
            <Form.Item name="ownerId" label={t('stores:fields.owner')} tooltip={t('stores:form.ownerHint')}>
              <UserSelect known={store ? [{ id: store.ownerId, name: store.ownerName }] : []} />
            </Form.Item>
          </div>
          <Form.Item name="address" label={t('stores:fields.address')}>
            <Input maxLength={STORE_LIMITS.address} />
          </Form.Item>
          <PositionPicker form={form} />
          <div style={half}>
            <Form.Item name="lng" label={t('stores:fields.lng')}>
              <InputNumber min={-180} max={180} step={0.000001} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="lat" label={t('stores:fields.lat')}>
              <InputNumber min={-90} max={90} step={0.000001} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="contact" label={t('stores:fields.contact')}>
              <Input maxLength={STORE_LIMITS.contact} />
            </Form.Item>
            <Form.Item name="phone" label={t('stores:fields.phone')} rules={[{ pattern: /^[0-9+\-() ]*$/, message: t('stores:form.phonePattern') }]}>
              <Input maxLength={STORE_LIMITS.phone} />
            </Form.Item>
            <Form.Item name="openingHours" label={t('stores:fields.openingHours')}>
              <Input maxLength={STORE_LIMITS.hours} placeholder="09:00-21:00" />
            </Form.Item>
            <Form.Item name="minSoc" label={t('stores:fields.minSoc')} tooltip={t('stores:form.minSocHint')}>
              <InputNumber min={0} max={100} precision={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="maxCellDeltaMv" label={t('stores:fields.maxCellDeltaMv')} tooltip={t('stores:form.checkHint')}>
              <InputNumber min={1} max={5000} precision={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="maxTempC" label={t('stores:fields.maxTempC')} tooltip={t('stores:form.checkHint')}>
              <InputNumber min={-40} max={150} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </div>
          <Form.Item name="remark" label={t('stores:fields.remark')}>
            <Input.TextArea maxLength={STORE_LIMITS.remark} rows={2} />
          </Form.Item>
        </>
      )}
    </FormModal>
  );
}
