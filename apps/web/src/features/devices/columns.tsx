import { Tag, Tooltip, Typography } from 'antd';
import type { ColumnType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import type { DeviceDto } from '@iot/contract';
import { formatTime, parseTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { localized } from '../../lib/localize';
import { AlarmLevelTag } from '../../components/AlarmLevel';
import type { DeviceSort } from './api';
import type { DataColumn } from '../../components/DataTable';

export function OnlineTag({ online, t }: { online: boolean; t: TFunction }) {
  return (
    <Tag color={online ? 'success' : 'default'} data-testid="online-tag">
      {t(online ? 'devices:online' : 'devices:offline')}
    </Tag>
  );
}

/** The device's warning level (its most severe active alarm) on the one severity scale. */
export function LevelTag({ level }: { level: number; t?: TFunction }) {
  return <AlarmLevelTag level={level} data-testid="warning-level" />;
}

const empty = (v: string | null | undefined, t: TFunction) => (v ? v : t('common:empty'));

function timeCell(value: string | null, t: TFunction, ago: boolean) {
  if (!value) return t('common:empty');
  const full = parseTime(value) ?? '';
  // "Just now" reads the same after every message: the exact time is the element's dateTime.
  return ago ? (
    <Tooltip title={full}>
      <time dateTime={value}>{formatTime(value, undefined, t)}</time>
    </Tooltip>
  ) : (
    full
  );
}

/**
 * Data columns of device tables (the list and the sub-device rows). Sortable ones carry their
 * API sort key as `key`; `sort` gives a sortable column's props (its arrow: use-server-table).
 * By default the columns an operator scans a fleet by (name with its project, SN, state, warning
 * level, last seen) fit a 1,280 px screen with the row actions, with room for a desktop
 * browser's scrollbar; the rest are in the column chooser.
 */
export function deviceColumns(
  t: TFunction,
  sort?: (key: DeviceSort) => Partial<ColumnType<DeviceDto>>,
  options: { project?: boolean; detailLink?: boolean } = {},
): DataColumn<DeviceDto>[] {
  const sortable = (key: DeviceSort): Partial<ColumnType<DeviceDto>> => (sort ? sort(key) : {});
  const columns: (DataColumn<DeviceDto> | false)[] = [
    {
      title: t('devices:fields.name'),
      dataIndex: 'name',
      ...sortable('name'),
      key: 'name',
      width: 160,
      ellipsis: { showTitle: false },
      render: (name: string, d) => (
        <span>
          <Tooltip title={name} placement="topLeft">
            {options.detailLink ? (
              <Link to={`/project/info?id=${d.id}`} data-testid={`device-link-${d.id}`}>
                <Typography.Text strong>{name}</Typography.Text>
              </Link>
            ) : (
              <Typography.Text strong>{name}</Typography.Text>
            )}
          </Tooltip>
          {d.subCount > 0 && (
            <Tooltip title={t('devices:subDevicesCount', { count: d.subCount })}>
              <Tag style={{ marginLeft: 6 }}>{d.subCount}</Tag>
            </Tooltip>
          )}
          {/* The project under the name: where a device belongs, without a column of its own. */}
          {options.project !== false && d.projectName && (
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }} ellipsis={{ tooltip: d.projectName }}>
              {d.projectName}
            </Typography.Text>
          )}
        </span>
      ),
    },
    { title: t('devices:fields.sn'), dataIndex: 'sn', ...sortable('sn'), key: 'sn', width: 150, phone: true },
    {
      title: t('devices:fields.typeId'),
      dataIndex: 'typeName',
      key: 'typeName',
      width: 140,
      optional: true,
      render: (_: string, d) => localized(d, 'typeName', currentLanguage()),
    },
    {
      title: t('devices:columns.online'),
      dataIndex: 'online',
      key: 'online',
      width: 100,
      phone: true,
      render: (online: boolean, d) =>
        d.enabled === false ? (
          <Tooltip title={t('devices:disabledHint')}>
            <Tag color="error" data-testid="disabled-tag">
              {t('devices:disabled')}
            </Tag>
          </Tooltip>
        ) : (
          <OnlineTag online={online} t={t} />
        ),
    },
    {
      title: t('devices:fields.warningLevel'),
      dataIndex: 'warningLevel',
      ...sortable('warningLevel'),
      key: 'warningLevel',
      width: 120,
      phone: true,
      render: (level: number) => <LevelTag level={level} t={t} />,
    },
    { title: t('devices:fields.imei'), dataIndex: 'imei', key: 'imei', width: 160, optional: true, render: (v: string) => empty(v, t) },
    { title: t('devices:fields.simNumber'), dataIndex: 'simNumber', key: 'simNumber', width: 170, optional: true, render: (v: string) => empty(v, t) },
    {
      title: t('devices:columns.lastSeen'),
      dataIndex: 'lastSeenAt',
      ...sortable('lastSeenAt'),
      key: 'lastSeenAt',
      width: 130,
      phone: true,
      render: (v: string | null) => timeCell(v, t, true),
    },
    {
      title: t('devices:columns.createdAt'),
      dataIndex: 'createdAt',
      ...sortable('createdAt'),
      key: 'createdAt',
      width: 170,
      optional: true,
      render: (v: string) => timeCell(v, t, false),
    },
    {
      title: t('devices:columns.updatedAt'),
      dataIndex: 'updatedAt',
      ...sortable('updatedAt'),
      key: 'updatedAt',
      width: 170,
      optional: true,
      render: (v: string) => timeCell(v, t, false),
    },
  ];
  return columns.filter((c): c is DataColumn<DeviceDto> => c !== false);
}
