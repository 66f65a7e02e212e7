import { lazy, Suspense } from 'react';
import { Button, Card, Col, Descriptions, Row, Skeleton, Space, Tag, Tooltip, Typography, theme } from 'antd';
import { EditOutlined, NodeIndexOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { DeviceDto } from '@iot/contract';
import { formatTime, parseTime } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { localized } from '../../../lib/localize';
import { useMapSettings } from '../../../lib/site';
import { AlarmLevelTag } from '../../../components/AlarmLevel';
import { usePermission } from '../../../lib/session';
import { useFences } from './api';
import { fenceCircles } from './fence-style';

// Leaflet and the world outline load only when a device with a position is shown.
const DeviceMap = lazy(() => import('../../../components/map/DeviceMap'));
const MAP_HEIGHT = 240;
/** Map mode 2: the device is not shown on maps (packages/contract MAP_MODES). */
const NOT_ON_MAPS = 2;

/**
 * Every registry field of the device, its state (online, enabled) and where it belongs, and what
 * the device reports about itself (its status message's info: firmware versions…).
 */
export function BasicInfo({
  device,
  online,
  lastSeenAt,
  parentName,
  onEdit,
}: {
  device: DeviceDto;
  online: boolean;
  lastSeenAt: string | null;
  parentName?: string;
  onEdit?: () => void;
}) {
  const canTrack = usePermission('device:track');
  const navigate = useNavigate();
  const { t } = useTranslation();
  const empty = t('common:empty');
  const f = (key: string) => t(`devices:fields.${key}`);
  const text = (v: string | null | undefined) => (v ? v : empty);
  const hasPosition = device.lng !== null && device.lat !== null;
  const mapSettings = useMapSettings();
  const showMap = hasPosition && device.mapMode !== NOT_ON_MAPS;
  // The device's geo-fences drawn round it, for those who may see them.
  const { token } = theme.useToken();
  const canFences = usePermission(['device:detail', 'device:fence']);
  const { data: fences } = useFences(device.id, showMap && canFences);
  /** Firmware versions and the like, as the device's status message reported them. */
  const info = Object.entries(device.reportedInfo ?? {});
  return (
    <Card
      title={
        <Space>
          <span data-testid="device-title">{device.name}</span>
          <Tag color={online ? 'success' : 'default'} data-testid="device-online">
            {t(online ? 'devices:online' : 'devices:offline')}
          </Tag>
          {!device.enabled && (
            <Tooltip title={t('devices:disabledHint')}>
              <Tag color="error" data-testid="device-disabled">
                {t('devices:disabled')}
              </Tag>
            </Tooltip>
          )}
        </Space>
      }
      extra={
        <Space>
          {device.camera && (
            <Button
              icon={<VideoCameraOutlined />}
              data-testid="device-video"
              // The player page (features/devices/video) in its own tab: it asks for the address.
              href={`/video/play?id=${device.id}`}
              target="_blank"
              rel="noopener"
            >
              {t('devicedetail:video')}
            </Button>
          )}
          {canTrack && (
            <Button icon={<NodeIndexOutlined />} onClick={() => void navigate(`/device/track?id=${device.id}`)} data-testid="device-track">
              {t('devicedetail:track')}
            </Button>
          )}
          {onEdit && (
            <Button icon={<EditOutlined />} onClick={onEdit} data-testid="device-edit">
              {t('devices:edit')}
            </Button>
          )}
        </Space>
      }
    >
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={showMap ? 16 : 24}>
          <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: showMap ? 2 : 3 }} data-testid="device-basic">
            <Descriptions.Item label={f('sn')}>{device.sn}</Descriptions.Item>
            <Descriptions.Item label={f('typeId')}>{localized(device, 'typeName', currentLanguage())}</Descriptions.Item>
            <Descriptions.Item label={f('projectId')}>
              {device.projectId ? <Link to={`/project/details?id=${device.projectId}`}>{device.projectName}</Link> : t('devices:noProject')}
            </Descriptions.Item>
            <Descriptions.Item label={t('devices:columns.lastSeen')}>
              {lastSeenAt ? (
                <Tooltip title={parseTime(lastSeenAt)}>
                  <span data-testid="device-last-seen">{formatTime(lastSeenAt, undefined, t)}</span>
                </Tooltip>
              ) : (
                empty
              )}
            </Descriptions.Item>
            <Descriptions.Item label={f('warningLevel')}>
              <AlarmLevelTag level={device.warningLevel} data-testid="detail-warning-level" />
            </Descriptions.Item>
            <Descriptions.Item label={f('parentId')}>
              {device.parentId ? <Link to={`/project/info?id=${device.parentId}`}>{parentName ?? `#${device.parentId}`}</Link> : empty}
            </Descriptions.Item>
            <Descriptions.Item label={f('hardwareVersion')}>{text(device.hardwareVersion)}</Descriptions.Item>
            <Descriptions.Item label={f('version4g')}>{text(device.version4g)}</Descriptions.Item>
            <Descriptions.Item label={f('btCode')}>{text(device.btCode)}</Descriptions.Item>
            <Descriptions.Item label={f('simNumber')}>{text(device.simNumber)}</Descriptions.Item>
            <Descriptions.Item label={f('imei')}>{text(device.imei)}</Descriptions.Item>
            <Descriptions.Item label={f('manufacturerModel')}>{text(device.manufacturerModel)}</Descriptions.Item>
            <Descriptions.Item label={f('mapMode')}>{t(`devices:mapModes.${device.mapMode}`)}</Descriptions.Item>
            <Descriptions.Item label={f('enabled')}>
              <span data-testid="device-enabled">{device.enabled ? t('devices:filters.enabledOptions.enabled') : t('devices:filters.enabledOptions.disabled')}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('devicedetail:position')}>
              {hasPosition ? (
                <Typography.Text copyable data-testid="device-position">{`${device.lng!.toFixed(6)}, ${device.lat!.toFixed(6)}`}</Typography.Text>
              ) : (
                empty
              )}
            </Descriptions.Item>
            <Descriptions.Item label={f('address')}>{text(device.address)}</Descriptions.Item>
            <Descriptions.Item label={f('alarmPhone')}>{text(device.alarmPhone)}</Descriptions.Item>
            <Descriptions.Item label={t('devices:columns.createdAt')}>{parseTime(device.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('devices:columns.updatedAt')}>{parseTime(device.updatedAt)}</Descriptions.Item>
            <Descriptions.Item label={f('remarks')}>{text(device.remarks)}</Descriptions.Item>
            <Descriptions.Item label={f('description')} span={showMap ? 2 : 3}>
              {text(device.description)}
            </Descriptions.Item>
            <Descriptions.Item label={t('devicedetail:reportedInfo')} span={showMap ? 2 : 3}>
              {info.length > 0 ? (
                <Space wrap size={[16, 4]} data-testid="device-reported-info">
                  {info.map(([key, value]) => (
                    <span key={key}>
                      <Typography.Text type="secondary">{key}:</Typography.Text> {String(value)}
                    </span>
                  ))}
                </Space>
              ) : (
                empty
              )}
            </Descriptions.Item>
          </Descriptions>
        </Col>
        {showMap && (
          <Col xs={24} xl={8} data-testid="device-map-slot">
            {mapSettings ? (
              <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: MAP_HEIGHT }} />}>
                <DeviceMap
                  lng={device.lng!}
                  lat={device.lat!}
                  settings={mapSettings}
                  height={MAP_HEIGHT}
                  label={t('devicedetail:map.label', { position: `${device.lng!.toFixed(6)}, ${device.lat!.toFixed(6)}` })}
                  circles={fences ? fenceCircles(fences.items, token) : undefined}
                />
              </Suspense>
            ) : (
              <Skeleton.Node active style={{ width: '100%', height: MAP_HEIGHT }} />
            )}
          </Col>
        )}
      </Row>
    </Card>
  );
}
