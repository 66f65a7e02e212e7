import { useState } from 'react';
import { App, Button, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { feedbackMessage } from '../../lib/feedback';
import { parseTime } from '../../lib/format';
import { RowLink } from '../../components/ListActions';
import { useDeleteRoadSection, useRoadSections, type RoadSection } from './api';
import { RoadSectionModal } from './RoadSectionModal';

/** Asks before deleting a road section, then deletes it (the list and the project map). */
export function useConfirmDeleteRoadSection(projectId: number) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const remove = useDeleteRoadSection(projectId);
  return (s: RoadSection) =>
    modal.confirm({
      title: t('projects:roads.deleteTitle'),
      content: t('projects:roads.deleteConfirm', { name: s.name }),
      okText: t('projects:delete.ok'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-ok' },
      cancelText: t('common:cancel'),
      onOk: async () => {
        try {
          await remove.mutateAsync(s.id);
          feedbackMessage().success(t('projects:roads.deleted'));
        } catch {
          // reported by the http client
        }
      },
    });
}

/** A project's road sections (ordered by `sort`), editable with project:edit. */
export function RoadSections({ projectId, editable }: { projectId: number; editable: boolean }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(10);
  const { data, isFetching } = useRoadSections(projectId, page, limit);
  const confirmDelete = useConfirmDeleteRoadSection(projectId);
  const [editing, setEditing] = useState<{ open: boolean; section: RoadSection | null }>({ open: false, section: null });

  const columns: ColumnsType<RoadSection> = [
    { title: t('projects:roads.fields.sort'), dataIndex: 'sort', width: 80 },
    { title: t('projects:roads.fields.name'), dataIndex: 'name' },
    {
      title: t('projects:roads.fields.description'),
      dataIndex: 'description',
      render: (v: string) => v || t('common:empty'),
    },
    {
      title: t('projects:roads.pointCount'),
      key: 'points',
      width: 110,
      render: (_, s) => s.points.length,
    },
    { title: t('projects:columns.createdAt'), dataIndex: 'createdAt', width: 170, render: (v: string) => parseTime(v) ?? '' },
  ];
  if (editable) {
    columns.push({
      title: t('projects:columns.actions'),
      key: 'actions',
      width: 140,
      render: (_, s) => (
        <Space size={0}>
          <RowLink testId={`road-edit-${s.id}`} onClick={() => setEditing({ open: true, section: s })}>
            {t('projects:actions.edit')}
          </RowLink>
          <Button type="link" size="small" danger onClick={() => confirmDelete(s)} data-testid={`road-delete-${s.id}`}>
            {t('projects:actions.delete')}
          </Button>
        </Space>
      ),
    });
  }

  return (
    <div data-testid="road-sections">
      {editable && (
        <Button icon={<PlusOutlined />} style={{ marginBottom: 12 }} onClick={() => setEditing({ open: true, section: null })} data-testid="road-add">
          {t('projects:roads.add')}
        </Button>
      )}
      <Table<RoadSection>
        rowKey="id"
        size="small"
        loading={isFetching}
        columns={columns}
        dataSource={data?.items ?? []}
        data-testid="table-roads"
        pagination={{
          current: page,
          pageSize: limit,
          total: data?.total ?? 0,
          hideOnSinglePage: true,
          showTotal: (total) => t('common:total', { total }),
          onChange: (p, size) => {
            setPage(size === limit ? p : 1);
            setLimit(size);
          },
        }}
      />
      <RoadSectionModal projectId={projectId} open={editing.open} section={editing.section} onClose={() => setEditing({ open: false, section: null })} />
    </div>
  );
}
