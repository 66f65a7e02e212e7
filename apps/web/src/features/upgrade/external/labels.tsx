import { Progress, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { EXTERNAL_OPEN_STATES, type ExternalState } from '@iot/contract/plain';
import type { ExternalDeviceDto } from '@iot/contract';

const STATE_COLORS: Record<ExternalState, string> = {
  none: 'default',
  assigned: 'blue',
  downloading: 'processing',
  installing: 'processing',
  succeeded: 'success',
  failed: 'error',
  cancelled: 'warning',
};

export function StateTag({ state }: { state: ExternalState }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLORS[state]} data-testid={`external-state-${state}`}>
      {t(`external:states.${state}`)}
    </Tag>
  );
}

/** The assignment's progress bar: moving while open, green when it succeeded, red when it failed. */
export function UpgradeProgress({ device }: { device: ExternalDeviceDto }) {
  const { t } = useTranslation();
  if (device.state === 'none') return null;
  const open = EXTERNAL_OPEN_STATES.includes(device.state);
  const status = device.state === 'succeeded' ? 'success' : device.state === 'failed' ? 'exception' : open ? 'active' : 'normal';
  return (
    <Progress
      percent={device.state === 'succeeded' ? 100 : device.progress}
      status={status}
      size="small"
      aria-label={t('external:fields.progress')}
      data-testid={`external-progress-${device.identifier}`}
    />
  );
}
