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
 */
export function deviceColumns(
  t: TFunction,
  sort?: (key: DeviceSort) => Partial<ColumnType<DeviceDto>>,
  options: { project?: boolean; pinName?: boolean; detailLink?: boolean } = {},
): ColumnType<DeviceDto>[] {
  const sortable = (key: DeviceSort): Partial<ColumnType<DeviceDto>> => (sort ? sort(key) : {});
  const columns: (ColumnType<DeviceDto> | false)[] = [
    {
      title: t('devices:fields.name'),
      dataIndex: 'name',
      ...sortable('name'),
      width: options.pinName ? 130 : 180,
      // On a phone the name stays in view while the other columns scroll under it.
      fixed: options.pinName ? 'start' : undefined,
      ellipsis: options.pinName,
      render: (name: string, d) => (
        <span>
          {options.detailLink ? (
            <Link to={`/project/info?id=${d.id}`} data-testid={`device-link-${d.id}`}>
              <Typography.Text strong>{name}</Typography.Text>
            </Link>
          ) : (
            <Typography.Text strong>{name}</Typography.Text>
          )}
          {d.subCount > 0 && (
            <Tooltip title={t('devices:subDevicesCount', { count: d.subCount })}>
              <Tag style={{ marginLeft: 6 }}>{d.subCount}</Tag>
            </Tooltip>
          )}
        </span>
      ),
    },
    { title: t('devices:fields.sn'), dataIndex: 'sn', ...sortable('sn'), width: 160 },
    {
      title: t('devices:fields.typeId'),
      dataIndex: 'typeName',
      width: 140,
      render: (_: string, d) => localized(d, 'typeName', currentLanguage()),
    },
    options.project !== false && {
      title: t('devices:fields.projectId'),
      dataIndex: 'projectName',
      width: 150,
      render: (v: string | null) => empty(v, t),
    },
    {
      title: t('devices:columns.online'),
      dataIndex: 'online',
      width: 100,
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
      width: 120,
      render: (level: number) => <LevelTag level={level} t={t} />,
    },
    { title: t('devices:fields.imei'), dataIndex: 'imei', width: 160, render: (v: string) => empty(v, t) },
    { title: t('devices:fields.simNumber'), dataIndex: 'simNumber', width: 170, render: (v: string) => empty(v, t) },
    {
      title: t('devices:columns.lastSeen'),
      dataIndex: 'lastSeenAt',
      ...sortable('lastSeenAt'),
      width: 130,
      render: (v: string | null) => timeCell(v, t, true),
    },
    {
      title: t('devices:columns.createdAt'),
      dataIndex: 'createdAt',
      ...sortable('createdAt'),
      width: 170,
      render: (v: string) => timeCell(v, t, false),
    },
    {
      title: t('devices:columns.updatedAt'),
      dataIndex: 'updatedAt',
      ...sortable('updatedAt'),
      width: 170,
      render: (v: string) => timeCell(v, t, false),
    },
  ];
  return columns.filter((c): c is ColumnType<DeviceDto> => c !== false);
}
