import { useState, type ReactNode } from 'react';
import { Alert, App, Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ProjectDto } from '@iot/contract';
import { feedbackMessage } from '../../lib/feedback';
import { ApiError, reportError } from '../../lib/http';
import { ProjectSelect } from '../../components/ProjectSelect';
import { useDeleteProject } from './api';

/**
 * Deleting a project: a confirmation, then DELETE. When the project still holds devices the
 * server answers 409; a second dialog asks where they go (another project, or none = moveTo 0).
 */
export function useDeleteProjectFlow(onDeleted?: (project: ProjectDto) => void): {
  start: (project: ProjectDto) => void;
  element: ReactNode;
} {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const remove = useDeleteProject();
  const [moving, setMoving] = useState<ProjectDto | null>(null);
  // undefined: nothing chosen yet; null: no project.
  const [target, setTarget] = useState<number | null | undefined>(undefined);
  const [touched, setTouched] = useState(false);

  const done = (project: ProjectDto) => {
    feedbackMessage().success(t('projects:delete.done', { name: project.name }));
    setMoving(null);
    onDeleted?.(project);
  };

  const start = (project: ProjectDto) => {
    modal.confirm({
      title: t('projects:delete.title'),
      content: t('projects:delete.confirm', { name: project.name }),
      okText: t('projects:delete.ok'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-ok' },
      cancelText: t('common:cancel'),
      onOk: async () => {
        try {
          await remove.mutateAsync({ id: project.id });
          done(project);
        } catch (err) {
          if (err instanceof ApiError && err.code === 40900) {
            setTarget(undefined);
            setTouched(false);
            // The server's count is fresher than the list's.
            const count = Number(/holds (\d+) device/.exec(err.message)?.[1] ?? project.deviceCount);
            setMoving({ ...project, deviceCount: count });
          } else if (err instanceof ApiError) reportError(err);
        }
      },
    });
  };

  const submitMove = async () => {
    setTouched(true);
    if (!moving || target === undefined) return;
    try {
      await remove.mutateAsync({ id: moving.id, moveTo: target ?? 0 });
      done(moving);
    } catch (err) {
      if (err instanceof ApiError) reportError(err);
    }
  };

  const missing = touched && target === undefined;
  const element = (
    <Modal
      open={!!moving}
      title={t('projects:delete.moveTitle', { name: moving?.name ?? '' })}
      okText={t('projects:delete.moveOk')}
      okButtonProps={{ danger: true, 'data-testid': 'delete-move-ok' }}
      cancelText={t('common:cancel')}
      confirmLoading={remove.isPending}
      onOk={() => void submitMove()}
      onCancel={() => setMoving(null)}
      destroyOnHidden
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title={t('projects:delete.holdsDevices', { count: moving?.deviceCount ?? 0 })}
      />
      <Form layout="vertical">
        <Form.Item
          label={t('projects:delete.moveTo')}
          required
          validateStatus={missing ? 'error' : undefined}
          help={missing ? t('projects:delete.moveRequired') : undefined}
        >
          <ProjectSelect
            allowNone
            allowClear={false}
            exclude={moving ? [moving.id] : []}
            value={target}
            onChange={(v) => setTarget(v)}
            placeholder={t('projects:delete.movePlaceholder')}
            data-testid="delete-move-target"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
  return { start, element };
}
