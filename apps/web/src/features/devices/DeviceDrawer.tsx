import { useEffect } from 'react';
import { Button, Col, Drawer, Form, Input, InputNumber, Row, Select, Space, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { DEVICE_LIMITS as LIMITS, MAP_MODES, PATTERNS } from '@iot/contract/plain';
import type { DeviceDto, DeviceFields } from '@iot/contract';
import { ApiError, describeError, reportError } from '../../lib/http';
import { feedbackMessage } from '../../lib/feedback';
import { useSaveDevice, type DeviceCredential } from './api';
import { ProjectSelect } from '../../components/ProjectSelect';
import { ParentDeviceSelect, TypeSelect } from './pickers';

type FormValues = Omit<DeviceFields, 'lng' | 'lat'> & { lng?: number | null; lat?: number | null };

interface Props {
  open: boolean;
  /** The device to edit; none: a new device. */
  device: DeviceDto | null;
  /** Project preset for a new device (the list's project). */
  defaultProjectId?: number;
  defaultProjectName?: string;
  onClose: () => void;
  /** After a create: the secret to show once. */
  onCreated: (credential: DeviceCredential) => void;
}

const EMPTY: FormValues = {
  name: '',
  sn: '',
  typeId: undefined as unknown as number,
  projectId: null,
  parentId: null,
  address: '',
  mapMode: 0,
  lng: null,
  lat: null,
  remarks: '',
  alarmPhone: '',
  btCode: '',
  version4g: '',
  hardwareVersion: '',
  simNumber: '',
  imei: '',
  manufacturerModel: '',
  description: '',
  enabled: true,
  camera: false,
  cameraSerial: '',
};

const FIELD_NAMES = Object.keys(EMPTY);

/**
 * Add or edit a device with every field of the contract's deviceFieldsSchema (the warning level is
 * not one: the alarm engine keeps it; the lists and the details page show it).
 */
export function DeviceDrawer({ open, device, defaultProjectId, defaultProjectName, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const save = useSaveDevice();

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (device) {
      const values = Object.fromEntries(FIELD_NAMES.map((k) => [k, device[k as keyof DeviceDto]]));
      form.setFieldsValue(values as FormValues);
    } else {
      form.setFieldsValue({ ...EMPTY, projectId: defaultProjectId ?? null });
    }
  }, [open, device, defaultProjectId, form]);

  const max = (n: number): Rule => ({ max: n, message: t('devices:validation.max', { max: n }) });
  const pattern = (re: RegExp, key: string): Rule => ({ pattern: re, message: t(`devices:validation.${key}`) });

  const submit = async () => {
    // A failed validation shows its messages beside the fields; nothing else to do.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const fields: DeviceFields = {
      ...EMPTY,
      ...values,
      lng: values.lng ?? null,
      lat: values.lat ?? null,
      projectId: values.projectId || null,
      parentId: values.parentId || null,
    };
    try {
      const result = await save.mutateAsync({ id: device?.id, fields });
      onClose();
      if (result) onCreated(result);
      else feedbackMessage().success(t('devices:saved'));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const field = (err.data as { field?: string } | null)?.field;
      if (field && FIELD_NAMES.includes(field)) {
        const text = err.code === 40900 && field === 'sn' ? t('devices:validation.snTaken') : describeError(err);
        form.setFields([{ name: field as keyof FormValues, errors: [text] }]);
        form.scrollToField(field as keyof FormValues);
      } else reportError(err);
    }
  };

  // Map mode 1 (a fixed device) is drawn at the position typed here: it needs one.
  const mapMode = Form.useWatch('mapMode', form);
  const fixed = mapMode === 1;
  const positionRules = (name: 'lng' | 'lat'): Rule[] =>
    fixed ? [{ required: true, message: t(`devices:validation.${name}Required`) }] : [];

  const item = (name: keyof FormValues, rules: Rule[] = []) => ({
    name,
    label: t(`devices:fields.${name}`),
    rules,
  });

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t(device ? 'devices:editTitle' : 'devices:addTitle')}
      size={720}
      forceRender
      extra={
        <Space>
          <Button onClick={onClose}>{t('common:cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="device-submit">
            {t('devices:save')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" initialValues={EMPTY} data-testid="device-form">
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              {...item('name', [{ required: true, whitespace: true, message: t('devices:validation.nameRequired') }, max(LIMITS.name)])}
            >
              <Input data-testid="field-name" maxLength={LIMITS.name} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              {...item('sn', [
                { required: true, whitespace: true, message: t('devices:validation.snRequired') },
                max(LIMITS.sn),
                pattern(PATTERNS.sn, 'snChars'),
              ])}
            >
              <Input data-testid="field-sn" maxLength={LIMITS.sn} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item {...item('typeId', [{ required: true, message: t('devices:validation.typeRequired') }])}>
              <TypeSelect data-testid="field-typeId" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item {...item('projectId')}>
              <ProjectSelect
                allowNone
                allowClear={false}
                currentName={device ? device.projectName : defaultProjectName}
                data-testid="field-projectId"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item {...item('parentId')} extra={t('devices:parentHint')}>
              <ParentDeviceSelect selfId={device?.id} data-testid="field-parentId" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item {...item('enabled')} valuePropName="checked" extra={t('devices:enabledHint')}>
              <Switch data-testid="field-enabled" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item {...item('camera')} valuePropName="checked" extra={t('devices:cameraHint')}>
              <Switch data-testid="field-camera" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item {...item('cameraSerial', [max(LIMITS.cameraSerial)])} extra={t('devices:cameraSerialHint')}>
              <Input data-testid="field-cameraSerial" maxLength={LIMITS.cameraSerial} />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item {...item('address', [max(LIMITS.address)])}>
              <Input data-testid="field-address" maxLength={LIMITS.address} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item {...item('mapMode')} extra={mapMode === undefined ? undefined : t(`devices:mapModeHints.${mapMode}`)}>
              <Select
                data-testid="field-mapMode"
                options={MAP_MODES.map((m) => ({ value: m, label: t(`devices:mapModes.${m}`) }))}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={8}>
            <Form.Item {...item('lng', positionRules('lng'))}>
              <InputNumber data-testid="field-lng" min={-180} max={180} step={0.000001} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={8}>
            <Form.Item {...item('lat', positionRules('lat'))}>
              <InputNumber data-testid="field-lat" min={-90} max={90} step={0.000001} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item {...item('alarmPhone', [max(LIMITS.alarmPhone), pattern(PATTERNS.alarmPhones, 'phoneChars')])}>
              <Input data-testid="field-alarmPhone" maxLength={LIMITS.alarmPhone} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item {...item('btCode', [max(LIMITS.btCode)])}>
              <Input data-testid="field-btCode" maxLength={LIMITS.btCode} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item {...item('simNumber', [max(LIMITS.simNumber), pattern(PATTERNS.digits, 'digits')])}>
              <Input data-testid="field-simNumber" maxLength={LIMITS.simNumber} inputMode="numeric" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item {...item('imei', [max(LIMITS.imei), pattern(PATTERNS.digits, 'digits')])}>
              <Input data-testid="field-imei" maxLength={LIMITS.imei} inputMode="numeric" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item {...item('version4g', [max(LIMITS.version4g)])}>
              <Input data-testid="field-version4g" maxLength={LIMITS.version4g} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item {...item('hardwareVersion', [max(LIMITS.hardwareVersion)])}>
              <Input data-testid="field-hardwareVersion" maxLength={LIMITS.hardwareVersion} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item {...item('manufacturerModel', [max(LIMITS.manufacturerModel)])}>
              <Input data-testid="field-manufacturerModel" maxLength={LIMITS.manufacturerModel} />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item {...item('remarks', [max(LIMITS.remarks)])}>
              <Input.TextArea data-testid="field-remarks" maxLength={LIMITS.remarks} rows={2} />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item {...item('description', [max(LIMITS.description)])}>
              <Input.TextArea data-testid="field-description" maxLength={LIMITS.description} rows={3} showCount />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Drawer>
  );
}
