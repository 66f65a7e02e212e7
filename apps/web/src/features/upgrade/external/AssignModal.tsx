import { Form, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { EXTERNAL_LIMITS } from '@iot/contract/plain';
import { FormModal } from '../../../components/FormModal';
import { feedbackMessage } from '../../../lib/feedback';
import { useAssignExternal, useVersionOptions } from './api';

interface Values {
  versionId: number;
  timeoutMin: number;
}

/** Assigns a firmware version to the chosen devices; their next check-in hands it over. */
export function AssignModal({ ids, onClose }: { ids: number[] | null; onClose: () => void }) {
  const { t } = useTranslation();
  const versions = useVersionOptions(!!ids);
  const assign = useAssignExternal();
  const submit = async (v: Values) => {
    const { count } = await assign.mutateAsync({ ids: ids ?? [], versionId: v.versionId, timeoutSec: v.timeoutMin * 60 });
    feedbackMessage().success(t('external:assigned', { count }));
    onClose();
  };
  return (
    <FormModal<Values>
      open={!!ids}
      title={t('external:assignTitle', { count: ids?.length ?? 0 })}
      initialValues={{ timeoutMin: EXTERNAL_LIMITS.timeoutDefaultSec / 60 }}
      onCancel={onClose}
      onSubmit={submit}
      testId="external-assign-modal"
    >
      <Form.Item name="versionId" label={t('external:fields.targetVersion')} rules={[{ required: true, message: t('external:versionRequired') }]}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          loading={versions.isLoading}
          notFoundContent={t('external:noVersions')}
          options={(versions.data ?? []).map((v) => ({ value: v.id, label: `${v.name} · ${v.softwareVersion}` }))}
          data-testid="external-assign-version"
        />
      </Form.Item>
      <Form.Item name="timeoutMin" label={t('external:timeout')} extra={t('external:timeoutHint')} rules={[{ required: true }]}>
        <InputNumber
          min={EXTERNAL_LIMITS.timeoutMinSec / 60}
          max={EXTERNAL_LIMITS.timeoutMaxSec / 60}
          precision={0}
          style={{ width: 160 }}
          data-testid="external-assign-timeout"
        />
      </Form.Item>
    </FormModal>
  );
}
