import { useEffect, useMemo, useState } from 'react';
import { Button, Card, Empty, Form, Space, Spin, Table, Typography } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { feedbackMessage } from '../../lib/feedback';
import { useProject, useProjectUsers, useSetProjectUsers, type ProjectUser } from './api';
import { UserSelect } from '../../components/UserSelect';

/**
 * /project/userProjectList?id= (project:users): the users a project is shared with. Saving
 * replaces the caller's part of the sharing; shared users see the project read-only.
 */
export default function ProjectUsersPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const raw = Number(params.get('id'));
  const id = Number.isInteger(raw) && raw > 0 ? raw : undefined;
  const project = useProject(id);
  const users = useProjectUsers(id);

  if (!id) return <Empty description={t('projects:details.noProject')} />;
  if (project.isLoading || users.isLoading) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (!project.data) return <Empty description={t('projects:details.notFound')} />;
  return <Editor key={id} id={id} name={project.data.name} current={users.data ?? []} canSave={project.data.can.users} />;
}

function Editor({ id, name, current, canSave }: { id: number; name: string; current: ProjectUser[]; canSave: boolean }) {
  const { t } = useTranslation();
  const save = useSetProjectUsers(id);
  const [selected, setSelected] = useState<number[]>(() => current.map((u) => u.id));
  useEffect(() => setSelected(current.map((u) => u.id)), [current]);
  const known = useMemo(() => current.map((u) => ({ id: u.id, name: u.username })), [current]);
  const dirty = selected.length !== current.length || selected.some((s) => !current.some((u) => u.id === s));

  const submit = async () => {
    try {
      await save.mutateAsync(selected);
      feedbackMessage().success(t('projects:users.saved'));
    } catch {
      // reported by the http client
    }
  };

  return (
    <Card title={t('projects:users.title', { name })} data-testid="project-users">
      <Typography.Paragraph type="secondary">{t('projects:users.hint')}</Typography.Paragraph>
      {/* Only the project's owner line changes who it is shared with (the server's `can`). */}
      {canSave && <Form layout="vertical">
        <Form.Item label={t('projects:users.select')} htmlFor="project-users-select">
          <Space.Compact style={{ width: '100%', maxWidth: 720 }}>
            <UserSelect id="project-users-select" mode="multiple" known={known} value={selected} onChange={setSelected} style={{ width: '100%' }} data-testid="project-users-select" />
            <Button type="primary" icon={<SaveOutlined />} loading={save.isPending} disabled={!dirty} onClick={() => void submit()} data-testid="project-users-save">
              {t('projects:save')}
            </Button>
          </Space.Compact>
        </Form.Item>
      </Form>}
      <Table<ProjectUser>
        rowKey="id"
        size="small"
        data-testid="table-project-users"
        dataSource={current}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: t('projects:users.username'), dataIndex: 'username' },
          { title: t('projects:users.company'), dataIndex: 'corporateName', render: (v: string) => v || t('common:empty') },
        ]}
      />
    </Card>
  );
}
