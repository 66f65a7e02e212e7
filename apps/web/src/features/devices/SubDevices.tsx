import { useState } from 'react';
import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DeviceDto } from '@iot/contract';
import { usePermission } from '../../lib/session';
import { useSubDevices } from './api';
import { deviceColumns } from './columns';

/** The sub-devices of a device (GET /device/subdevicelist), shown in its expanded row. */
export function SubDevices({ parentId }: { parentId: number }) {
  const { t } = useTranslation();
  const canDetail = usePermission('device:detail');
  const [page, setPage] = useState(1);
  const limit = 10;
  const { data, isFetching } = useSubDevices(parentId, page, limit);
  return (
    <Table<DeviceDto>
      rowKey="id"
      size="small"
      data-testid={`sub-devices-${parentId}`}
      title={() => t('devices:subDevicesTitle')}
      loading={isFetching}
      // The default columns of the list, as wide as the row that holds them.
      columns={deviceColumns(t, undefined, { detailLink: canDetail }).filter((c) => !c.optional)}
      dataSource={data?.items ?? []}
      pagination={{
        current: page,
        pageSize: limit,
        total: data?.total ?? 0,
        hideOnSinglePage: true,
        size: 'small',
        onChange: setPage,
      }}
    />
  );
}
