import { useEffect } from 'react';
import { Button, Form, Input, InputNumber, Modal, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PROJECT_LIMITS as LIMITS } from '@iot/contract/plain';
import { feedbackMessage } from '../../lib/feedback';
import { ApiError, describeError, reportError } from '../../lib/http';
import { useSaveRoadSection, type RoadSection } from './api';

interface Props {
  projectId: number;
  open: boolean;
  section: RoadSection | null;
  /** Points drawn on the project map: they replace the section's (or start a new one's). */
  drawn?: [number, number][];
  onClose: () => void;
}

interface FormValues {
  name: string;
  description: string;
  sort: number;
  points: { lng: number | null; lat: number | null }[];
}

const MAX_POINTS = LIMITS.points;

/** Add or edit a road section: name, description, order and its points as [lng, lat] rows. */
export function RoadSectionModal({ projectId, open, section, drawn, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const save = useSaveRoadSection(projectId);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    const points = (drawn ?? section?.points ?? []).map(([lng, lat]) => ({ lng, lat }));
    form.setFieldsValue(
      section
        ? { name: section.name, description: section.description, sort: section.sort, points }
        : { name: '', description: '', sort: 0, points },
    );
  }, [open, section, drawn, form]);

  const submit = async () => {
    // A failed validation shows its messages beside the fields; nothing else to do.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const input = {
      name: values.name.trim(),
      description: values.description ?? '',
      sort: values.sort ?? 0,
      points: (values.points ?? []).map((p) => [p.lng as number, p.lat as number] as [number, number]),
    };
    try {
      await save.mutateAsync({ id: section?.id, input });
      feedbackMessage().success(t('projects:roads.saved'));
      onClose();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const field = (err.data as { field?: string } | null)?.field;
      if (field === 'name' || field === 'description' || field === 'sort') {
        form.setFields([{ name: field, errors: [describeError(err)] }]);
      } else reportError(err);
    }
  };

  const coordinate = (min: number, max: number, key: 'lngRange' | 'latRange') => [
    { required: true, message: t(`projects:validation.${key}`) },
    { type: 'number' as const, min, max, message: t(`projects:validation.${key}`) },
  ];

  return (
    <Modal
      open={open}
      title={t(section ? 'projects:roads.editTitle' : 'projects:roads.addTitle')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('projects:save')}
      cancelText={t('common:cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'road-submit' }}
      width={640}
      forceRender
    >
      <Form form={form} layout="vertical" data-testid="road-form">
        <Form.Item
          name="name"
          label={t('projects:roads.fields.name')}
          rules={[
            { required: true, whitespace: true, message: t('projects:validation.nameRequired') },
            { max: LIMITS.name, message: t('projects:validation.max', { max: LIMITS.name }) },
          ]}
        >
          <Input data-testid="field-name" maxLength={LIMITS.name} />
        </Form.Item>
        <Form.Item name="description" label={t('projects:roads.fields.description')}>
          <Input.TextArea data-testid="field-description" maxLength={LIMITS.description} rows={2} />
        </Form.Item>
        <Form.Item name="sort" label={t('projects:roads.fields.sort')} extra={t('projects:roads.sortHint')}>
          <InputNumber data-testid="field-sort" min={0} max={LIMITS.sort} precision={0} style={{ width: 160 }} />
        </Form.Item>
        <Typography.Text strong>{t('projects:roads.fields.points')}</Typography.Text>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {t('projects:roads.pointsHint')}
        </Typography.Paragraph>
        <Form.List name="points">
          {(fields, { add, remove }) => (
            <div data-testid="road-points">
              {fields.map((field, index) => (
                <Space key={field.key} align="baseline" style={{ display: 'flex' }}>
                  <Typography.Text type="secondary" style={{ width: 28, display: 'inline-block', textAlign: 'right' }}>
                    {index + 1}.
                  </Typography.Text>
                  <Form.Item name={[field.name, 'lng']} rules={coordinate(-180, 180, 'lngRange')} style={{ marginBottom: 8 }}>
                    <InputNumber placeholder={t('projects:fields.lng')} aria-label={t('projects:fields.lng')} step={0.000001} style={{ width: 180 }} data-testid={`point-lng-${index}`} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'lat']} rules={coordinate(-90, 90, 'latRange')} style={{ marginBottom: 8 }}>
                    <InputNumber placeholder={t('projects:fields.lat')} aria-label={t('projects:fields.lat')} step={0.000001} style={{ width: 180 }} data-testid={`point-lat-${index}`} />
                  </Form.Item>
                  <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('projects:roads.removePoint')} onClick={() => remove(field.name)} />
                </Space>
              ))}
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                disabled={fields.length >= MAX_POINTS}
                onClick={() => add({ lng: null, lat: null })}
                data-testid="road-add-point"
              >
                {t('projects:roads.addPoint')}
              </Button>
            </div>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
