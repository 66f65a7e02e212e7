import { useState, type ReactNode } from 'react';
import { Button, Card, Descriptions, Empty, Space, Spin, Tabs, Tag } from 'antd';
import { EditOutlined, TeamOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { usePermission } from '../../lib/session';
import { parseTime } from '../../lib/format';
import { useProject } from './api';
import { ProjectFormModal } from './ProjectFormModal';
import { RoadSections } from './RoadSections';
import { ProjectWeather } from './ProjectWeather';

interface Props {
  /**
   * The project's devices tab. Features do not import each other: the app composes this page
   * with the device registry's table (app/ProjectDetails.tsx).
   */
  devices?: (project: { id: number; name: string }) => ReactNode;
}

/** /project/details?id= : the project's details, its devices and its road sections. */
export default function ProjectDetailsPage({ devices }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const raw = Number(params.get('id'));
  const id = Number.isInteger(raw) && raw > 0 ? raw : undefined;
  const { data: project, isLoading } = useProject(id);
  const canDevices = usePermission('device:list');
  const [editing, setEditing] = useState(false);

  if (!id) return <Empty description={t('projects:details.noProject')} />;
  if (isLoading) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (!project) return <Empty description={t('projects:details.notFound')} />;
  const empty = t('common:empty');
  // What the server allows this caller on this project (a shared one is read-only).
  const canEdit = project.can.edit;
  const canUsers = project.can.users;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="project-details">
      <Card
        title={project.name}
        extra={
          <Space>
            {canUsers && (
              <Button icon={<TeamOutlined />} onClick={() => navigate(`/project/userProjectList?id=${project.id}`)}>
                {t('projects:actions.users')}
              </Button>
            )}
            {canEdit && (
              <Button type="primary" icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="project-edit">
                {t('projects:actions.edit')}
              </Button>
            )}
          </Space>
        }
      >
        <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }}>
          <Descriptions.Item label={t('projects:fields.owner')}>{project.ownerName}</Descriptions.Item>
          <Descriptions.Item label={t('projects:fields.address')}>{project.address || empty}</Descriptions.Item>
          <Descriptions.Item label={t('projects:details.position')}>
            {project.lng !== null && project.lat !== null ? `${project.lng}, ${project.lat}` : empty}
          </Descriptions.Item>
          <Descriptions.Item label={t('projects:fields.weather')}>
            <Tag color={project.weather ? 'blue' : 'default'}>{t(project.weather ? 'projects:on' : 'projects:off')}</Tag>
          </Descriptions.Item>
          {project.weather && (
            <Descriptions.Item label={t('projects:weather.title')} span={2}>
              <ProjectWeather projectId={project.id} />
            </Descriptions.Item>
          )}
          <Descriptions.Item label={t('projects:fields.map')}>
            <Tag color={project.map ? 'green' : 'default'}>{t(project.map ? 'projects:on' : 'projects:off')}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('projects:columns.deviceCount')}>{project.deviceCount}</Descriptions.Item>
          <Descriptions.Item label={t('projects:columns.createdAt')}>{parseTime(project.createdAt)}</Descriptions.Item>
          <Descriptions.Item label={t('projects:fields.remarks')} span={2}>
            {project.remarks || empty}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card>
        <Tabs
          items={[
            ...(canDevices && devices
              ? [
                  {
                    key: 'devices',
                    label: t('projects:details.devices'),
                    children: devices(project),
                  },
                ]
              : []),
            {
              key: 'roads',
              label: t('projects:details.roads'),
              children: <RoadSections key={project.id} projectId={project.id} editable={canEdit} />,
            },
          ]}
        />
      </Card>
      <ProjectFormModal open={editing} project={project} onClose={() => setEditing(false)} />
    </Space>
  );
}
