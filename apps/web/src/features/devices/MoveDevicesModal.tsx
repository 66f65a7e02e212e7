import { useEffect, useState } from 'react';
import { Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedbackMessage } from '../../lib/feedback';
import { useMoveDevices } from './api';
import { ProjectSelect } from '../../components/ProjectSelect';

interface Props {
  ids: number[];
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}

/** Bulk move of the selected devices to a project, or to none. */
export function MoveDevicesModal({ ids, open, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const move = useMoveDevices();
  // undefined: nothing chosen yet; null: "no project".
  const [target, setTarget] = useState<number | null | undefined>(undefined);
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (open) {
      setTarget(undefined);
      setTouched(false);
    }
  }, [open]);

  const submit = async () => {
    setTouched(true);
    if (target === undefined) return;
    try {
      const { count } = await move.mutateAsync({ ids, projectId: target });
      feedbackMessage().success(t('devices:bulk.moved', { count }));
      onDone();
    } catch {
      // reported by the http client
    }
  };

  const missing = touched && target === undefined;
  return (
    <Modal
      open={open}
      title={t('devices:bulk.moveTitle', { count: ids.length })}
      okText={t('devices:bulk.moveOk')}
      cancelText={t('common:cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={move.isPending}
      okButtonProps={{ 'data-testid': 'move-ok' }}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item
          label={t('devices:bulk.target')}
          required
          validateStatus={missing ? 'error' : undefined}
          help={missing ? t('devices:validation.projectRequired') : undefined}
        >
          <ProjectSelect allowNone allowClear={false} value={target} onChange={setTarget} data-testid="move-target" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
