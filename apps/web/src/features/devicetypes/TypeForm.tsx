import { useEffect } from 'react';
import { Alert, Button, Card, Form, Input, Skeleton, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DEVICE_TYPE_LIMITS as LIMITS, PATTERNS } from '@iot/contract/plain';
import type { DeviceTypeDto } from '@iot/contract';
import { closeTag } from '../../lib/tags';
import { feedbackMessage } from '../../lib/feedback';
import { ApiError, reportError } from '../../lib/http';
import { useDeviceType, useSaveDeviceType, type DeviceTypeFields } from './api';
import { LIST_PATH, TypeHeader, TypeNotFound, useIsSuperAdmin, useTypeId } from './shared';

const EMPTY: DeviceTypeFields = { code: '', name: '', nameEn: '', nameEs: '', nameJa: '', remarks: '', recordTrack: false };
const FORM_FIELDS: readonly string[] = Object.keys(EMPTY);
const TRANSLATED_NAMES = ['nameEn', 'nameEs', 'nameJa'] as const;

/** §2 /device/addtype and /device/edittype?id=: the type's own fields. */
export function TypeForm({ mode }: { mode: 'add' | 'edit' }) {
  const id = useTypeId();
  const { data: type, isLoading, isError } = useDeviceType(mode === 'edit' ? id : undefined);
  if (mode === 'edit') {
    if (id === undefined || isError) return <TypeNotFound />;
    if (isLoading || !type) {
      return (
        <Card>
          <Skeleton active />
        </Card>
      );
    }
    return <TypeFormCard mode="edit" type={type} />;
  }
  return <TypeFormCard mode="add" />;
}

function TypeFormCard({ mode, type }: { mode: 'add' | 'edit'; type?: DeviceTypeDto }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<DeviceTypeFields>();
  const save = useSaveDeviceType();
  const isSuper = useIsSuperAdmin();
  const readOnly = !!type?.builtin && !isSuper;
  const path = mode === 'add' ? '/device/addtype' : '/device/edittype';

  useEffect(() => {
    form.setFieldsValue(
      type
        ? {
            code: type.code,
            name: type.name,
            nameEn: type.nameEn,
            nameEs: type.nameEs,
            nameJa: type.nameJa,
            remarks: type.remarks,
            recordTrack: type.recordTrack,
          }
        : EMPTY,
    );
  }, [form, type]);

  const leave = () => {
    closeTag(path);
    navigate(LIST_PATH);
  };

  const onFinish = async (values: DeviceTypeFields) => {
    const body = {
      code: values.code.trim(),
      name: values.name.trim(),
      nameEn: (values.nameEn ?? '').trim(),
      nameEs: (values.nameEs ?? '').trim(),
      nameJa: (values.nameJa ?? '').trim(),
      remarks: (values.remarks ?? '').trim(),
      recordTrack: !!values.recordTrack,
    };
    try {
      await save.mutateAsync(type ? { ...body, id: type.id } : body);
      feedbackMessage().success(t(mode === 'add' ? 'devicetypes:form.created' : 'devicetypes:form.updated'));
      leave();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const field = (err.data as { field?: unknown } | null)?.field;
      if (typeof field === 'string' && FORM_FIELDS.includes(field) && (err.code === 40000 || err.code === 40900)) {
        const text = err.code === 40900 ? t('devicetypes:form.codeTaken') : t('devicetypes:form.invalid');
        form.setFields([{ name: field as keyof DeviceTypeFields, errors: [text] }]);
        form.scrollToField(field);
      } else reportError(err);
    }
  };

  return (
    <Card title={<TypeHeader type={type} title={t(mode === 'add' ? 'devicetypes:form.addTitle' : 'devicetypes:form.editTitle')} />}>
      {readOnly && <Alert type="info" showIcon title={t('devicetypes:builtinReadOnly')} style={{ marginBottom: 16 }} />}
      <Form<DeviceTypeFields>
        form={form}
        layout="horizontal"
        labelCol={{ xs: { span: 24 }, sm: { span: 6 } }}
        wrapperCol={{ xs: { span: 24 }, sm: { span: 14 } }}
        style={{ maxWidth: 760 }}
        initialValues={EMPTY}
        disabled={readOnly || save.isPending}
        onFinish={onFinish}
        data-testid="devicetype-form"
      >
        <Form.Item
          name="code"
          label={t('devicetypes:fields.code')}
          extra={type?.builtin ? t('devicetypes:form.codeBuiltin') : t('devicetypes:form.codeHint')}
          rules={[
            { required: true, whitespace: true, message: t('devicetypes:form.codeRequired') },
            { max: LIMITS.code, message: t('devicetypes:form.tooLong', { max: LIMITS.code }) },
            { pattern: PATTERNS.code, message: t('devicetypes:form.codePattern') },
          ]}
        >
          <Input disabled={type?.builtin || readOnly} maxLength={LIMITS.code} autoComplete="off" data-testid="field-code" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('devicetypes:fields.name')}
          extra={t('devicetypes:form.nameHint')}
          rules={[
            { required: true, whitespace: true, message: t('devicetypes:form.nameRequired') },
            { max: LIMITS.name, message: t('devicetypes:form.tooLong', { max: LIMITS.name }) },
          ]}
        >
          <Input maxLength={LIMITS.name} autoComplete="off" data-testid="field-name" />
        </Form.Item>
        {TRANSLATED_NAMES.map((name) => (
          <Form.Item
            key={name}
            name={name}
            label={t(`devicetypes:fields.${name}`)}
            rules={[{ max: LIMITS.name, message: t('devicetypes:form.tooLong', { max: LIMITS.name }) }]}
          >
            <Input maxLength={LIMITS.name} autoComplete="off" data-testid={`field-${name}`} />
          </Form.Item>
        ))}
        <Form.Item
          name="remarks"
          label={t('devicetypes:fields.remarks')}
          rules={[{ max: LIMITS.remarks, message: t('devicetypes:form.tooLong', { max: LIMITS.remarks }) }]}
        >
          <Input.TextArea rows={3} maxLength={LIMITS.remarks} showCount data-testid="field-remarks" />
        </Form.Item>
        <Form.Item
          name="recordTrack"
          label={t('devicetypes:fields.recordTrack')}
          valuePropName="checked"
          extra={t('devicetypes:form.recordTrackHint')}
        >
          <Switch data-testid="field-recordTrack" />
        </Form.Item>
        <Form.Item wrapperCol={{ xs: { span: 24 }, sm: { offset: 6, span: 14 } }}>
          <Space>
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="btn-save">
              {t('devicetypes:save')}
            </Button>
            <Button onClick={leave} disabled={false} data-testid="btn-cancel">
              {t('common:cancel')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
