import { useEffect, useMemo } from 'react';
import { Col, Form, Input, InputNumber, Modal, Row, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { PROJECT_LIMITS as LIMITS } from '@iot/contract/plain';
import type { ProjectDto } from '@iot/contract';
import { useSession } from '../../lib/session';
import { feedbackMessage } from '../../lib/feedback';
import { ApiError, describeError, reportError } from '../../lib/http';
import { useSaveProject, type ProjectInput } from './api';
import { UserSelect } from '../../components/UserSelect';

interface Props {
  open: boolean;
  /** The project to edit; none: a new project. */
  project: ProjectDto | null;
  onClose: () => void;
  onSaved?: (id: number) => void;
}

type FormValues = Omit<ProjectInput, 'lng' | 'lat'> & { lng?: number | null; lat?: number | null };

const FIELDS = ['name', 'remarks', 'address', 'lng', 'lat', 'weather', 'map', 'ownerId'];

/** Add or edit a project: name, remarks, address, position, weather and map switches, owner. */
export function ProjectFormModal({ open, project, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const { user } = useSession();
  const [form] = Form.useForm<FormValues>();
  const save = useSaveProject();

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      project
        ? {
            name: project.name,
            remarks: project.remarks,
            address: project.address,
            lng: project.lng,
            lat: project.lat,
            weather: project.weather,
            map: project.map,
            ownerId: project.ownerId,
          }
        : { name: '', remarks: '', address: '', lng: null, lat: null, weather: false, map: true, ownerId: user?.id },
    );
  }, [open, project, user?.id, form]);

  const known = useMemo(() => {
    const list = user ? [{ id: user.id, name: user.name }] : [];
    if (project) list.push({ id: project.ownerId, name: project.ownerName });
    return list;
  }, [user, project]);

  const submit = async () => {
    // A failed validation shows its messages beside the fields; nothing else to do.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const input: ProjectInput = {
      name: values.name.trim(),
      remarks: values.remarks ?? '',
      address: values.address ?? '',
      lng: values.lng ?? null,
      lat: values.lat ?? null,
      weather: !!values.weather,
      map: !!values.map,
      ownerId: values.ownerId,
    };
    try {
      const result = await save.mutateAsync({ id: project?.id, input });
      feedbackMessage().success(t(project ? 'projects:updated' : 'projects:created'));
      onClose();
      onSaved?.(project?.id ?? (result as { id: number }).id);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const field = (err.data as { field?: string } | null)?.field;
      if (field && FIELDS.includes(field)) {
        form.setFields([{ name: field as keyof FormValues, errors: [describeError(err)] }]);
      } else reportError(err);
    }
  };

  const range = (min: number, max: number, key: 'lngRange' | 'latRange') => ({
    validator: (_: unknown, v: number | null | undefined) =>
      v === null || v === undefined || (v >= min && v <= max) ? Promise.resolve() : Promise.reject(new Error(t(`projects:validation.${key}`))),
  });

  return (
    <Modal
      open={open}
      title={t(project ? 'projects:editTitle' : 'projects:addTitle')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('projects:save')}
      cancelText={t('common:cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'project-submit' }}
      width={640}
      forceRender
    >
      <Form form={form} layout="vertical" data-testid="project-form">
        <Form.Item
          name="name"
          label={t('projects:fields.name')}
          rules={[
            { required: true, whitespace: true, message: t('projects:validation.nameRequired') },
            { max: LIMITS.name, message: t('projects:validation.max', { max: LIMITS.name }) },
          ]}
        >
          <Input data-testid="field-name" maxLength={LIMITS.name} />
        </Form.Item>
        <Form.Item name="address" label={t('projects:fields.address')} rules={[{ max: LIMITS.address, message: t('projects:validation.max', { max: LIMITS.address }) }]}>
          <Input data-testid="field-address" maxLength={LIMITS.address} />
        </Form.Item>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="lng" label={t('projects:fields.lng')} rules={[range(-180, 180, 'lngRange')]}>
              <InputNumber data-testid="field-lng" step={0.000001} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="lat" label={t('projects:fields.lat')} rules={[range(-90, 90, 'latRange')]}>
              <InputNumber data-testid="field-lat" step={0.000001} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="weather" label={t('projects:fields.weather')} valuePropName="checked">
              <Switch data-testid="field-weather" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="map" label={t('projects:fields.map')} valuePropName="checked">
              <Switch data-testid="field-map" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="ownerId" label={t('projects:fields.owner')} extra={t('projects:ownerHint')}>
          <UserSelect known={known} data-testid="field-ownerId" />
        </Form.Item>
        <Form.Item name="remarks" label={t('projects:fields.remarks')} rules={[{ max: LIMITS.remarks, message: t('projects:validation.max', { max: LIMITS.remarks }) }]}>
          <Input.TextArea data-testid="field-remarks" maxLength={LIMITS.remarks} rows={3} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
