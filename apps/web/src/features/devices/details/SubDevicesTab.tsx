import { useState } from 'react';
import { Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DeviceDto } from '@iot/contract';
import { formatTime } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { localized } from '../../../lib/localize';
import { useChildren } from './api';

/** The device's children with their state; each opens its own details. */
export function SubDevicesTab({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const { data, isFetching } = useChildren(deviceId, page, 10, true);
  const columns: ColumnsType<DeviceDto> = [
    { title: t('devices:fields.name'), dataIndex: 'name', render: (v: string, d) => <Link to={`/project/info?id=${d.id}`}>{v}</Link> },
    { title: t('devices:fields.sn'), dataIndex: 'sn' },
    { title: t('devices:fields.typeId'), key: 'type', render: (_, d) => localized(d, 'typeName', currentLanguage()) },
    {
      title: t('devices:columns.online'),
      dataIndex: 'online',
      render: (v: boolean) => <Tag color={v ? 'success' : 'default'}>{t(v ? 'devices:online' : 'devices:offline')}</Tag>,
    },
    { title: t('devices:columns.lastSeen'), dataIndex: 'lastSeenAt', render: (v: string | null) => (v ? formatTime(v, undefined, t) : t('common:empty')) },
  ];
  return (
    <Table<DeviceDto>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={data?.items ?? []}
      loading={isFetching}
      data-testid="sub-devices"
      pagination={{ current: page, pageSize: 10, total: data?.total ?? 0, hideOnSinglePage: true, onChange: setPage }}
    />
  );
}
