import { Alert, Button, Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DeviceCredential } from './api';

interface Props {
  credential: DeviceCredential | null;
  /** created: after adding a device; regenerated: after "Regenerate secret". */
  reason: 'created' | 'regenerated';
  onClose: () => void;
}

/**
 * The device's ingestion secret, shown this once: the server keeps only its hash. The dialog
 * does not close on a click beside it, so the secret is not lost by accident.
 */
export function SecretModal({ credential, reason, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Modal
      open={!!credential}
      title={t(reason === 'created' ? 'devices:secret.createdTitle' : 'devices:secret.regeneratedTitle')}
      onCancel={onClose}
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose} data-testid="secret-close">
          {t('devices:secret.done')}
        </Button>
      }
    >
      {credential && (
        <>
          <Alert type="warning" showIcon title={t('devices:secret.onceNote')} style={{ marginBottom: 16 }} />
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label={t('devices:fields.sn')}>{credential.sn}</Descriptions.Item>
            <Descriptions.Item label={t('devices:secret.label')}>
              <Typography.Text
                code
                copyable={{ text: credential.secret, tooltips: [t('devices:secret.copy'), t('devices:secret.copied')] }}
                data-testid="secret-value"
                style={{ wordBreak: 'break-all' }}
              >
                {credential.secret}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
        </>
      )}
    </Modal>
  );
}
