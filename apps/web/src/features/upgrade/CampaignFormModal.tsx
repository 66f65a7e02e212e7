import { useState } from 'react';
import { Alert, Button, Col, Form, Input, InputNumber, Modal, Radio, Row, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { UPGRADE_DEFAULTS, UPGRADE_LIMITS } from '@iot/contract/plain';
import type { CampaignPlan } from '@iot/contract';
import { ApiError, describeError } from '../../lib/http';
import { feedbackMessage } from '../../lib/feedback';
import { currentLanguage } from '../../lib/i18n';
import { localName } from '../../lib/localize';
import { useDebounced } from '../../lib/use-debounced';
import { ProjectSelect } from '../../components/ProjectSelect';
import { useDeviceSearch, useStartCampaign, useTypeOptions, useVersionOptions, type CampaignStartBody } from './campaigns-api';

interface Picked {
  value: number;
  label: React.ReactNode;
}

interface FormValues {
  versionId?: number;
  mode: 'devices' | 'filter';
  devices?: Picked[];
  projectId?: number | null;
  typeId?: number;
  currentVersion?: string;
  concurrency: number;
  stageTimeoutSec: number;
  retries: number;
  deadlineHours: number;
}

const L = UPGRADE_LIMITS;
const INITIAL: FormValues = { mode: 'devices', ...UPGRADE_DEFAULTS };

/** Firmware versions by name or software version, searched on the server. */
function VersionSelect({ value, onChange, id }: { value?: number; onChange?: (v: number | undefined) => void; id?: string }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const versions = useVersionOptions(useDebounced(search.trim()));
  return (
    <Select<number>
      id={id}
      value={value}
      onChange={onChange}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      loading={versions.isFetching}
      placeholder={t('campaigns:form.versionPlaceholder')}
      notFoundContent={versions.isError ? t('campaigns:form.versionsUnavailable') : t('campaigns:form.noVersion')}
      options={(versions.data ?? []).map((v) => ({
        value: v.id,
        label: `${v.name} ${v.softwareVersion}${v.detail ? ` (${v.detail})` : ''}`,
      }))}
      data-testid="campaign-version"
    />
  );
}

/** Devices by SN or name prefix (GET /device/seachList); the chosen ones keep their names. */
function DevicePicker({ value, onChange, id }: { value?: Picked[]; onChange?: (v: Picked[]) => void; id?: string }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const text = useDebounced(search.trim(), 250);
  const found = useDeviceSearch(text);
  return (
    <Select<Picked[]>
      id={id}
      mode="multiple"
      labelInValue
      value={value}
      onChange={(v) => onChange?.(v)}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      loading={found.isFetching}
      options={(found.data ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.sn})` }))}
      placeholder={t('campaigns:form.devicesPlaceholder')}
      notFoundContent={text ? t('campaigns:form.noDevice') : t('campaigns:form.typeToSearch')}
      maxTagCount="responsive"
      data-testid="campaign-devices"
    />
  );
}

function TypeSelect({ value, onChange, id }: { value?: number; onChange?: (v: number | undefined) => void; id?: string }) {
  const { t } = useTranslation();
  const types = useTypeOptions();
  return (
    <Select<number>
      id={id}
      value={value}
      onChange={onChange}
      allowClear
      loading={types.isFetching}
      placeholder={t('campaigns:form.typePlaceholder')}
      showSearch={{ optionFilterProp: 'label' }}
      options={(types.data ?? []).map((o) => ({ value: o.id, label: `${localName(o, currentLanguage())} (${o.code})` }))}
      data-testid="campaign-type"
    />
  );
}

/** The body the form asks for: the devices named, or the filter's fields that are set. */
function bodyOf(v: FormValues, dryRun: boolean): CampaignStartBody {
  const targets =
    v.mode === 'devices'
      ? { deviceIds: (v.devices ?? []).map((d) => d.value) }
      : {
          ...(v.projectId ? { projectId: v.projectId } : {}),
          ...(v.typeId ? { typeId: v.typeId } : {}),
          ...(v.currentVersion?.trim() ? { currentVersion: v.currentVersion.trim() } : {}),
        };
  return {
    versionId: v.versionId!,
    targets,
    concurrency: v.concurrency,
    stageTimeoutSec: v.stageTimeoutSec,
    retries: v.retries,
    deadlineHours: v.deadlineHours,
    dryRun,
  };
}

/**
 * The form field shown beside a refusal naming `field`: `targets.deviceIds` is the device picker, or
 * the filter when that is shown. A refusal about the targets as a whole (`targets`: nothing to
 * upgrade, with the counts why) has no one field: the form shows it below.
 */
function fieldFor(field: string, mode: FormValues['mode']): keyof FormValues | undefined {
  if (field.startsWith('targets.deviceIds')) return mode === 'devices' ? 'devices' : 'currentVersion';
  const last = field.split('.').pop() as keyof FormValues;
  const shown: (keyof FormValues)[] = ['versionId', 'concurrency', 'stageTimeoutSec', 'retries', 'deadlineHours'];
  if (mode === 'filter') shown.push('projectId', 'typeId', 'currentVersion');
  return shown.includes(last) ? last : undefined;
}

function PlanSummary({ plan }: { plan: CampaignPlan }) {
  const { t } = useTranslation();
  const parts = [
    t('campaigns:plan.targets', { count: plan.targets }),
    t('campaigns:plan.incompatible', { count: plan.incompatible }),
    t('campaigns:plan.busy', { count: plan.busy }),
    t('campaigns:plan.current', { count: plan.current }),
  ];
  return (
    <Alert
      type={plan.targets > 0 ? 'info' : 'warning'}
      showIcon
      role="status"
      title={parts.join(t('campaigns:plan.separator'))}
      data-testid="campaign-plan"
      data-targets={plan.targets}
    />
  );
}

/**
 * "New upgrade": a version, the devices (named, or a filter), the pace and the time limits.
 * "Check" asks the server what the campaign would target (dryRun), "Start" starts it.
 */
export function CampaignFormModal({ open, onClose, onStarted }: { open: boolean; onClose: () => void; onStarted: (id: number) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const start = useStartCampaign();
  const [plan, setPlan] = useState<CampaignPlan | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<'check' | 'start' | null>(null);
  const mode = Form.useWatch('mode', form) ?? 'devices';

  const submit = async (dryRun: boolean) => {
    let values: FormValues;
    try {
      values = await form.validateFields();
    } catch {
      return; // the form shows what is missing
    }
    setBusy(dryRun ? 'check' : 'start');
    setFailure(null);
    try {
      const result = await start.mutateAsync(bodyOf(values, dryRun));
      if (dryRun || result.campaignId === undefined) {
        setPlan(result);
        return;
      }
      feedbackMessage().success(t('campaigns:started', { id: result.campaignId, count: result.targets }));
      onStarted(result.campaignId);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const field = (err.data as { field?: unknown } | null)?.field;
      const name = typeof field === 'string' ? fieldFor(field, values.mode) : undefined;
      if (name) form.setFields([{ name, errors: [describeError(err)] }]);
      else setFailure(describeError(err));
      if (!dryRun) feedbackMessage().error(t('campaigns:startFailed'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal
      open={open}
      title={t('campaigns:new')}
      width={640}
      onCancel={onClose}
      destroyOnHidden
      mask={{ closable: false }}
      afterOpenChange={(shown) => {
        if (!shown) {
          setPlan(null);
          setFailure(null);
        }
      }}
      data-testid="campaign-form"
      footer={
        <Space>
          <Button onClick={onClose} data-testid="modal-cancel">
            {t('common:cancel')}
          </Button>
          <Button loading={busy === 'check'} disabled={busy === 'start'} onClick={() => void submit(true)} data-testid="campaign-check">
            {t('campaigns:form.check')}
          </Button>
          <Button type="primary" loading={busy === 'start'} disabled={busy === 'check'} onClick={() => void submit(false)} data-testid="campaign-start">
            {t('campaigns:form.start')}
          </Button>
        </Space>
      }
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={INITIAL}
        preserve={false}
        // A changed form no longer matches the figures of its last check.
        onValuesChange={() => {
          setPlan(null);
          setFailure(null);
        }}
      >
        <Form.Item name="versionId" label={t('campaigns:form.version')} rules={[{ required: true, message: t('campaigns:form.versionRequired') }]}>
          <VersionSelect />
        </Form.Item>
        <Form.Item name="mode" label={t('campaigns:form.targets')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'devices', label: t('campaigns:form.bySelection') },
              { value: 'filter', label: t('campaigns:form.byFilter') },
            ]}
            data-testid="campaign-mode"
          />
        </Form.Item>
        {mode === 'devices' ? (
          <Form.Item
            name="devices"
            label={t('campaigns:form.devices')}
            rules={[
              { required: true, type: 'array', min: 1, message: t('campaigns:form.devicesRequired') },
              { type: 'array', max: L.selectedMax, message: t('campaigns:form.devicesMax', { max: L.selectedMax }) },
            ]}
          >
            <DevicePicker />
          </Form.Item>
        ) : (
          <>
            <Row gutter={12}>
              <Col xs={24} sm={12}>
                <Form.Item name="projectId" label={t('campaigns:form.project')}>
                  <ProjectSelect data-testid="campaign-project" />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12}>
                <Form.Item name="typeId" label={t('campaigns:form.type')}>
                  <TypeSelect />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item
              name="currentVersion"
              label={t('campaigns:form.currentVersion')}
              extra={t('campaigns:form.currentVersionHint')}
              dependencies={['projectId', 'typeId']}
              rules={[
                ({ getFieldValue }) => ({
                  validator: (_, v?: string) =>
                    getFieldValue('projectId') || getFieldValue('typeId') || v?.trim()
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('campaigns:form.filterRequired'))),
                }),
              ]}
            >
              <Input maxLength={64} data-testid="campaign-current-version" />
            </Form.Item>
          </>
        )}
        <Row gutter={12}>
          <Col xs={12} sm={6}>
            <Form.Item name="concurrency" label={t('campaigns:form.concurrency')} tooltip={t('campaigns:form.concurrencyHint')} rules={[{ required: true, message: t('campaigns:form.required') }]}>
              <InputNumber min={L.concurrencyMin} max={L.concurrencyMax} precision={0} style={{ width: '100%' }} data-testid="campaign-concurrency" />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item name="stageTimeoutSec" label={t('campaigns:form.stageTimeout')} tooltip={t('campaigns:form.stageTimeoutHint')} rules={[{ required: true, message: t('campaigns:form.required') }]}>
              <InputNumber min={L.stageTimeoutMin} max={L.stageTimeoutMax} precision={0} style={{ width: '100%' }} data-testid="campaign-timeout" />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item name="retries" label={t('campaigns:form.retries')} tooltip={t('campaigns:form.retriesHint')} rules={[{ required: true, message: t('campaigns:form.required') }]}>
              <InputNumber min={0} max={L.retriesMax} precision={0} style={{ width: '100%' }} data-testid="campaign-retries" />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item name="deadlineHours" label={t('campaigns:form.deadline')} tooltip={t('campaigns:form.deadlineHint')} rules={[{ required: true, message: t('campaigns:form.required') }]}>
              <InputNumber min={0.01} max={L.deadlineHoursMax} step={1} style={{ width: '100%' }} data-testid="campaign-deadline" />
            </Form.Item>
          </Col>
        </Row>
      </Form>
      {plan && <PlanSummary plan={plan} />}
      {failure && <Alert type="error" showIcon role="alert" title={failure} data-testid="campaign-failure" />}
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        {t('campaigns:form.checkHint')}
      </Typography.Paragraph>
    </Modal>
  );
}
