import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Card, Empty, Space, Spin, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { ENERGY_PARAMS } from '@iot/contract/plain';
import { usePermission } from '../../../lib/session';
import { DeviceLogTable } from '../../../components/DeviceLogTable';
import { usePageTitle } from '../../../lib/page-title';
// One-way seam: editing uses the registry's own form (the registry never imports this page).
import { DeviceDrawer } from '../DeviceDrawer';
import { useDeviceBasic, useDisplayGroups } from './api';
import { BasicInfo } from './BasicInfo';
import { EnergyTab } from './EnergyTab';
import { FencePanel } from './FencePanel';
import { HistoryTab } from './HistoryTab';
import { LiveParams } from './LiveParams';
import { PackView, hasPack } from './PackView';
import { SetParams } from './SetParams';
import { SubDevicesTab } from './SubDevicesTab';
import { useDeviceLive } from './live';
import { deviceDetailKeys } from '../../../lib/query-keys';

/** Re-renders every 30 s so "x minutes ago" and stale marks stay true. */
function useNow(everyMs = 30_000) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * §2 /project/info?id= (hidden, opened from the device list, project details and alarm pages):
 * everything about one device, now and in the past.
 */
export default function DeviceDetailsPage({ alarms }: { alarms?: (deviceId: number) => ReactNode } = {}) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const raw = Number(params.get('id'));
  const id = Number.isInteger(raw) && raw > 0 ? raw : undefined;
  const { data: device, isLoading } = useDeviceBasic(id);
  const { data: parent } = useDeviceBasic(device?.parentId ?? undefined);
  usePageTitle('/project/info', device?.name);
  if (!id) return <Empty description={t('devicedetail:noDevice')} />;
  if (isLoading) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (!device) return <Empty description={t('devicedetail:notFound')} />;
  return <Details key={device.id} deviceId={device.id} parentName={parent?.name} alarms={alarms} />;
}

function Details({
  deviceId,
  parentName,
  alarms,
}: {
  deviceId: number;
  parentName?: string;
  /** The alarms feature's table for this device (the app composes it: features never import each other). */
  alarms?: (deviceId: number) => ReactNode;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { data: device } = useDeviceBasic(deviceId);
  const { data: groups = [], isLoading } = useDisplayGroups(deviceId);
  const live = useDeviceLive(deviceId);
  const now = useNow();
  const canLogs = usePermission('log:device');
  const canAlarms = usePermission(['alarm:list', 'device:detail']);
  const canFences = usePermission(['device:detail', 'device:fence']);
  const [editing, setEditing] = useState(false);

  // A command that ended changes the history list: refresh it.
  const ended = Object.values(live.commands).filter((c) => c.status !== 'pending' && c.status !== 'sent').length;
  useEffect(() => {
    if (ended > 0) void qc.invalidateQueries({ queryKey: deviceDetailKeys.commandsOf(deviceId) });
  }, [ended, deviceId, qc]);

  if (!device) return null;
  const ids = new Set(groups.flatMap((g) => g.params.map((p) => p.semaphoreId)));
  const energy = Object.values(ENERGY_PARAMS).every((x) => ids.has(x));
  const isParentable = device.parentId === null;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="device-details">
      {live.revoked && <Alert type="warning" showIcon title={t('devicedetail:liveRevoked')} data-testid="live-revoked" />}
      <BasicInfo
        device={device}
        online={live.online ?? device.online}
        lastSeenAt={live.lastSeenAt ?? device.lastSeenAt}
        parentName={parentName}
        // What the server allows this caller on this device (its owner line and the role's codes).
        onEdit={device.can.edit ? () => setEditing(true) : undefined}
      />
      <Card>
        <Tabs
          destroyOnHidden
          items={[
            {
              key: 'params',
              label: t('devicedetail:tabs.params'),
              children: isLoading ? (
                <Spin />
              ) : (
                <Space orientation="vertical" size={16} style={{ width: '100%' }}>
                  {hasPack(groups) && <PackView groups={groups} liveValues={live.values} />}
                  <LiveParams groups={groups} liveValues={live.values} now={now} />
                </Space>
              ),
            },
            {
              key: 'set',
              label: t('devicedetail:tabs.set'),
              children: <SetParams device={device} live={live} canSend={device.can.command} />,
            },
            ...(canFences ? [{ key: 'fences', label: t('devicedetail:tabs.fences'), children: <FencePanel device={device} live={live} /> }] : []),
            {
              key: 'history',
              label: t('devicedetail:tabs.history'),
              children: <HistoryTab deviceId={deviceId} groups={groups} />,
            },
            ...(energy ? [{ key: 'energy', label: t('devicedetail:tabs.energy'), children: <EnergyTab deviceId={deviceId} /> }] : []),
            ...(isParentable && device.subCount > 0
              ? [{ key: 'sub', label: t('devicedetail:tabs.sub', { count: device.subCount }), children: <SubDevicesTab deviceId={deviceId} /> }]
              : []),
            ...(alarms && canAlarms ? [{ key: 'alarms', label: t('devicedetail:tabs.alarms'), children: alarms(deviceId) }] : []),
            ...(canLogs ? [{ key: 'logs', label: t('devicedetail:tabs.logs'), children: <DeviceLogTable deviceId={deviceId} /> }] : []),
          ]}
        />
      </Card>
      <DeviceDrawer open={editing} device={device} onClose={() => setEditing(false)} onCreated={() => undefined} />
    </Space>
  );
}
