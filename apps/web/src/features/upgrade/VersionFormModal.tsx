import { useEffect, useRef, useState } from 'react';
import { Alert, Col, Form, Input, InputNumber, Modal, Progress, Radio, Row, Select, Typography, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { FIRMWARE_LIMITS, UPGRADE_LIMITS } from '@iot/contract/plain';
import { feedbackMessage } from '../../lib/feedback';
import { formatBytes } from '../../lib/format';
import { ApiError, describeError, reportError } from '../../lib/http';
import { currentLanguage } from '../../lib/i18n';
import { localName } from '../../lib/localize';
import { uploadImage, useSaveVersion, useTypeOptions, type Uploaded, type Version, type VersionEdit, type VersionInput } from './api';

interface Props {
  open: boolean;
  /** The version to edit; none: a new version. */
  version: Version | null;
  onClose: () => void;
}

type Source = 'file' | 'url';
interface FormValues {
  name: string;
  softwareVersion: string;
  manufacturer: string;
  module: string;
  info: string;
  typeIds: number[];
  models: string[];
  source: Source;
  url?: string;
  sha256?: string;
  size?: number | null;
}

const FIELDS = ['name', 'softwareVersion', 'manufacturer', 'module', 'info', 'typeIds', 'models', 'url', 'sha256', 'size'];
const SHA256 = /^[0-9a-fA-F]{64}$/;

/**
 * Add or edit a firmware version: its fields, the device types and models it applies to, and its
 * image: a file uploaded here (with progress; the server answers its size and SHA-256) or an
 * external URL with its SHA-256. Editing keeps the image unless a new one is given.
 */
export function VersionFormModal({ open, version, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const save = useSaveVersion();
  const types = useTypeOptions();
  const lang = currentLanguage();
  const source = Form.useWatch('source', form);
  const [uploaded, setUploaded] = useState<Uploaded | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const abort = useRef<(() => void) | null>(null);

  useEffect(() => {
    if (!open) return;
    setUploaded(null);
    setProgress(null);
    setUploadError(null);
    form.resetFields();
    form.setFieldsValue(
      version
        ? {
            name: version.name,
            softwareVersion: version.softwareVersion,
            manufacturer: version.manufacturer,
            module: version.module,
            info: version.info,
            typeIds: version.types.map((x) => x.id),
            models: version.models,
            source: version.url ? 'url' : 'file',
            url: version.url || undefined,
            sha256: version.url ? (version.sha256 ?? undefined) : undefined,
            size: version.url ? version.size : null,
          }
        : { name: '', softwareVersion: '', manufacturer: '', module: '', info: '', typeIds: [], models: [], source: 'file' },
    );
  }, [open, version, form]);

  const close = () => {
    abort.current?.();
    onClose();
  };

  const upload = (file: File) => {
    setUploaded(null);
    setUploadError(null);
    setProgress(0);
    const handle = uploadImage(file, setProgress);
    abort.current = handle.abort;
    handle.promise
      .then((res) => {
        setUploaded(res);
        setProgress(100);
      })
      .catch((err: unknown) => {
        setProgress(null);
        if (err instanceof ApiError) setUploadError(describeError(err));
      })
      .finally(() => {
        abort.current = null;
      });
  };

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const uploading = progress !== null && !uploaded;
    if (values.source === 'file' && uploading) {
      setUploadError(t('upgrade:form.stillUploading'));
      return;
    }
    if (values.source === 'file' && !uploaded && !version?.fileName) {
      setUploadError(t('upgrade:form.fileRequired'));
      return;
    }
    const fields = {
      name: values.name.trim(),
      softwareVersion: values.softwareVersion.trim(),
      manufacturer: (values.manufacturer ?? '').trim(),
      module: values.module.trim(),
      info: values.info ?? '',
      typeIds: values.typeIds ?? [],
      models: values.models ?? [],
    };
    const sha256 = values.sha256?.trim().toLowerCase();
    const external = { url: values.url?.trim(), sha256, ...(values.size ? { size: values.size } : {}) };
    // The image is sent only when it changes: an unchanged one is no new image (a running
    // campaign's version keeps its image; its other fields may change).
    const urlChanged = version ? version.url !== external.url || version.sha256 !== sha256 || (version.size ?? null) !== (values.size ?? null) : true;
    const image = values.source === 'file' ? (uploaded ? { fileKey: uploaded.fileKey } : {}) : urlChanged ? external : {};
    try {
      if (version) await save.mutateAsync({ id: version.id, ...fields, ...image } as VersionEdit);
      else await save.mutateAsync({ ...fields, ...image } as VersionInput);
      feedbackMessage().success(t(version ? 'upgrade:updated' : 'upgrade:created', { name: fields.name }));
      onClose();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const field = (err.data as { field?: string } | null)?.field;
      if (field && FIELDS.includes(field)) form.setFields([{ name: field as keyof FormValues, errors: [describeError(err)] }]);
      else if (field === 'fileKey') setUploadError(describeError(err));
      else reportError(err);
    }
  };

  const max = (n: number) => ({ max: n, message: t('upgrade:validation.max', { max: n }) });
  const required = (key: string) => ({ required: true, whitespace: true, message: t(`upgrade:validation.${key}`) });
  const locked = !!version?.inUse;

  return (
    <Modal
      open={open}
      title={t(version ? 'upgrade:editTitle' : 'upgrade:addTitle')}
      onCancel={close}
      onOk={() => void submit()}
      okText={t('common:confirm')}
      cancelText={t('common:cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: progress !== null && !uploaded && !uploadError, ...({ 'data-testid': 'version-submit' } as Record<string, string>) }}
      width={720}
      forceRender
      mask={{ closable: false }}
      data-testid="version-modal"
    >
      <Form form={form} layout="vertical" data-testid="version-form">
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="name" label={t('upgrade:fields.name')} rules={[required('nameRequired'), max(UPGRADE_LIMITS.nameMax)]}>
              <Input maxLength={UPGRADE_LIMITS.nameMax} data-testid="field-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="softwareVersion"
              label={t('upgrade:fields.softwareVersion')}
              rules={[required('softwareVersionRequired'), max(FIRMWARE_LIMITS.textMax)]}
            >
              <Input maxLength={FIRMWARE_LIMITS.textMax} data-testid="field-softwareVersion" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="manufacturer" label={t('upgrade:fields.manufacturer')} rules={[max(FIRMWARE_LIMITS.textMax)]}>
              <Input maxLength={FIRMWARE_LIMITS.textMax} data-testid="field-manufacturer" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="module" label={t('upgrade:fields.module')} rules={[required('moduleRequired'), max(FIRMWARE_LIMITS.textMax)]}>
              <Input maxLength={FIRMWARE_LIMITS.textMax} data-testid="field-module" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="typeIds" label={t('upgrade:fields.types')} extra={t('upgrade:form.anyType')}>
          <Select
            mode="multiple"
            allowClear
            loading={types.isLoading}
            optionFilterProp="label"
            maxCount={FIRMWARE_LIMITS.typesMax}
            options={(types.data ?? []).map((ty) => ({ value: ty.id, label: `${localName(ty, lang)} (${ty.code})` }))}
            aria-label={t('upgrade:fields.types')}
            data-testid="field-typeIds"
          />
        </Form.Item>
        <Form.Item name="models" label={t('upgrade:fields.models')} extra={t('upgrade:form.anyModel')}>
          <Select mode="tags" tokenSeparators={[',']} maxCount={FIRMWARE_LIMITS.modelsMax} open={false} aria-label={t('upgrade:fields.models')} data-testid="field-models" />
        </Form.Item>
        <Form.Item name="source" label={t('upgrade:fields.image')}>
          <Radio.Group disabled={locked} data-testid="field-source">
            <Radio value="file">{t('upgrade:form.sourceFile')}</Radio>
            <Radio value="url">{t('upgrade:form.sourceUrl')}</Radio>
          </Radio.Group>
        </Form.Item>
        {locked && <Alert type="info" showIcon title={t('upgrade:form.imageLocked')} style={{ marginBottom: 16 }} />}
        {source === 'file' ? (
          <div style={{ marginBottom: 16 }}>
            {version?.fileName && !uploaded && (
              <Typography.Paragraph type="secondary" data-testid="current-file">
                {t('upgrade:form.currentFile', { name: version.fileName, size: formatBytes(version.size ?? 0) })}
              </Typography.Paragraph>
            )}
            {!locked && (
              <div data-testid="firmware-upload">
                <Upload.Dragger
                  maxCount={1}
                  showUploadList={false}
                  beforeUpload={(f) => {
                    upload(f);
                    return false;
                  }}
                >
                  <p className="ant-upload-drag-icon">
                    <InboxOutlined />
                  </p>
                  <p>{t('upgrade:form.drop')}</p>
                </Upload.Dragger>
              </div>
            )}
            {progress !== null && (
              <Progress percent={progress} status={uploaded ? 'success' : 'active'} aria-label={t('upgrade:form.progress')} data-testid="upload-progress" />
            )}
            {uploaded && (
              <Typography.Paragraph data-testid="uploaded-file">
                {t('upgrade:form.uploaded', { name: uploaded.fileName, size: formatBytes(uploaded.size) })}{' '}
                <Typography.Text code copyable={{ text: uploaded.sha256 }}>
                  {uploaded.sha256.slice(0, 12)}…
                </Typography.Text>
              </Typography.Paragraph>
            )}
            {uploadError && <Alert type="error" showIcon title={uploadError} data-testid="upload-error" />}
          </div>
        ) : (
          <Row gutter={16}>
            <Col span={24}>
              <Form.Item
                name="url"
                label={t('upgrade:fields.url')}
                rules={[
                  { required: true, whitespace: true, message: t('upgrade:validation.urlRequired') },
                  { pattern: /^https?:\/\/\S+$/i, message: t('upgrade:validation.urlPattern') },
                  max(UPGRADE_LIMITS.urlMax),
                ]}
              >
                <Input disabled={locked} maxLength={UPGRADE_LIMITS.urlMax} data-testid="field-url" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={16}>
              <Form.Item
                name="sha256"
                label={t('upgrade:fields.sha256')}
                rules={[
                  { required: true, whitespace: true, message: t('upgrade:validation.sha256Required') },
                  { pattern: SHA256, message: t('upgrade:validation.sha256Pattern') },
                ]}
              >
                <Input disabled={locked} maxLength={64} style={{ fontFamily: 'monospace' }} data-testid="field-sha256" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={8}>
              <Form.Item name="size" label={t('upgrade:fields.sizeBytes')}>
                <InputNumber disabled={locked} min={1} precision={0} style={{ width: '100%' }} data-testid="field-size" />
              </Form.Item>
            </Col>
          </Row>
        )}
        <Form.Item name="info" label={t('upgrade:fields.info')} rules={[max(UPGRADE_LIMITS.infoMax)]}>
          <Input.TextArea maxLength={UPGRADE_LIMITS.infoMax} rows={3} showCount data-testid="field-info" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
