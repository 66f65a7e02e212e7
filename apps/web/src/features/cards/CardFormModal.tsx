import { DatePicker, Form, Input, InputNumber, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { CARD_CARRIERS, CARD_LIMITS, CARD_STATUSES } from '@iot/contract/plain';
import type { CardDto, CardFields } from '@iot/contract';
import { useDeviceSearch } from '../../lib/use-device-search';
import { FormModal } from '../../components/FormModal';
import { ProjectSelect } from '../../components/ProjectSelect';
import { useSaveCard } from './api';

type FormValues = Omit<CardFields, 'activatedAt' | 'expiresAt'> & { activatedAt?: Dayjs | null; expiresAt?: Dayjs | null };

const digits = /^\d*$/;

/** The device picker: SN or name prefix (GET /device/seachList), the current device kept. */
function DeviceSelect({ value, onChange, current }: { value?: number | null; onChange?: (v: number | null) => void; current?: { id: number; label: string } }) {
  const { t } = useTranslation();
  const { setQ, text, devices } = useDeviceSearch();
  const options = [
    ...(current ? [{ value: current.id, label: current.label }] : []),
    ...devices.filter((d) => d.id !== current?.id).map((d) => ({ value: d.id, label: `${d.name} (${d.sn})` })),
  ];
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setQ }}
      allowClear
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={options}
      placeholder={t('cards:form.devicePlaceholder')}
      notFoundContent={text ? t('common:empty') : t('cards:form.deviceHint')}
      data-testid="card-device"
    />
  );
}

/** Add or edit a SIM card (card:edit). */
export function CardFormModal({ open, card, onClose }: { open: boolean; card: CardDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveCard();
  const initial: Partial<FormValues> = card
    ? { ...card, activatedAt: card.activatedAt ? dayjs(card.activatedAt) : null, expiresAt: card.expiresAt ? dayjs(card.expiresAt) : null }
    : { carrier: 'chinaMobile', status: 'active', dataAllowanceMb: 0, voiceAllowanceMin: 0, dataUsedMb: 0, voiceUsedMin: 0 };
  const dateOf = (d?: Dayjs | null) => (d ? d.format('YYYY-MM-DD') : null);
  return (
    <FormModal<FormValues>
      open={open}
      title={card ? t('cards:editCard') : t('cards:addCard')}
      initialValues={initial}
      onCancel={onClose}
      width={720}
      testId="card-form"
      onSubmit={async (v) => {
        await save.mutateAsync({ id: card?.id, fields: { ...v, activatedAt: dateOf(v.activatedAt), expiresAt: dateOf(v.expiresAt) } });
        onClose();
      }}
    >
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 16 }}>
        <Form.Item
          name="iccid"
          label={t('cards:fields.iccid')}
          rules={[
            { required: true, message: t('cards:form.iccidRequired') },
            { pattern: /^\d{19,20}$/, message: t('cards:form.iccidPattern') },
          ]}
        >
          <Input maxLength={CARD_LIMITS.iccid} data-testid="card-iccid" />
        </Form.Item>
        <Form.Item name="msisdn" label={t('cards:fields.msisdn')} rules={[{ pattern: digits, message: t('cards:form.digits') }]}>
          <Input maxLength={CARD_LIMITS.msisdn} data-testid="card-msisdn" />
        </Form.Item>
        <Form.Item name="imsi" label={t('cards:fields.imsi')} rules={[{ pattern: digits, message: t('cards:form.digits') }]}>
          <Input maxLength={CARD_LIMITS.imsi} />
        </Form.Item>
        <Form.Item name="carrier" label={t('cards:fields.carrier')}>
          <Select options={CARD_CARRIERS.map((c) => ({ value: c, label: t(`cards:carriers.${c}`) }))} />
        </Form.Item>
        <Form.Item name="plan" label={t('cards:fields.plan')}>
          <Input maxLength={CARD_LIMITS.plan} data-testid="card-plan" />
        </Form.Item>
        <Form.Item name="status" label={t('cards:fields.status')}>
          <Select options={CARD_STATUSES.map((s) => ({ value: s, label: t(`cards:status.${s}`) }))} />
        </Form.Item>
        <Form.Item name="activatedAt" label={t('cards:fields.activatedAt')}>
          <DatePicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="expiresAt" label={t('cards:fields.expiresAt')}>
          <DatePicker style={{ width: '100%' }} data-testid="card-expires" />
        </Form.Item>
        <Form.Item name="dataAllowanceMb" label={t('cards:fields.dataAllowanceMb')}>
          <InputNumber min={0} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="dataUsedMb" label={t('cards:fields.dataUsedMb')}>
          <InputNumber min={0} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="voiceAllowanceMin" label={t('cards:fields.voiceAllowanceMin')}>
          <InputNumber min={0} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="voiceUsedMin" label={t('cards:fields.voiceUsedMin')}>
          <InputNumber min={0} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="groupId" label={t('cards:fields.groupId')} tooltip={t('cards:form.groupHint')}>
          <Input maxLength={CARD_LIMITS.groupId} />
        </Form.Item>
        <Form.Item name="projectId" label={t('cards:fields.project')}>
          <ProjectSelect allowClear />
        </Form.Item>
        <Form.Item name="deviceId" label={t('cards:fields.device')} tooltip={t('cards:form.deviceLink')}>
          <DeviceSelect current={card?.deviceId ? { id: card.deviceId, label: `${card.deviceName} (${card.deviceSn})` } : undefined} />
        </Form.Item>
      </div>
      <Form.Item name="remarks" label={t('cards:fields.remarks')}>
        <Input.TextArea maxLength={CARD_LIMITS.remarks} rows={2} />
      </Form.Item>
    </FormModal>
  );
}
