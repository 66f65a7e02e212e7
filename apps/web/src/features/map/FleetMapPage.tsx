import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Card, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import L from 'leaflet';
import { LiveType } from '@iot/contract/plain';
import type { MapPositions } from '@iot/contract';
import BaseMap, { type MapHandle } from '../../components/map/BaseMap';
import { AlarmLevelTag, SEVERITY_STYLES } from '../../components/AlarmLevel';
import { PageSpin } from '../../components/PageSpin';
import { formatCount } from '../../lib/format';
import { live } from '../../lib/live';
import { mapKeys } from '../../lib/query-keys';
import { usePermission } from '../../lib/session';
import { useMapSettings } from '../../lib/site';
import { usePositions } from './api';
import { buildIndex, FLEET_STATES, type DeviceProps, type FleetFilter, type FleetState } from './fleet';
import { FleetLayer } from './FleetLayer';
import './fleet-map.css';

/** Marker colours: the alarm severity scale's (decision 0023), online green, offline grey; white text on each is 4.5:1. */
const ONLINE = '#237804';
const OFFLINE = '#595959';
export const markerColour = (online: boolean, level: number) =>
  level > 0 ? (SEVERITY_STYLES[level]?.color as string) : online ? ONLINE : OFFLINE;

/** News of alarms or states refetch the positions at most this often (one answer for the whole fleet). */
const REFETCH_MS = 15_000;

/** What a screen may add to the map: road sections on a project's map (the app composes them). */
export interface FleetMapExtras {
  /** Rendered under the filters with the map's handle, once the map exists. */
  layers?: (handle: MapHandle, projectId: number) => ReactNode;
  /** The device's name and key live values in its popup. */
  popup?: (deviceId: number) => ReactNode;
  /**
   * The home dashboard's card (issue #34): the whole fleet without filters, a smaller map and a
   * link to the full one; nothing at all while none of the caller's projects has its map on.
   */
  compact?: boolean;
}

/**
 * /project/map (map:view): the caller's devices in projects with maps on, clustered, coloured by
 * state and alarm level, filtered by project, type and state; `?projectId=` shows one project's
 * map (opened from the project list). A device's popup shows its key live values and links to its
 * details. Live: followed devices' states change at once; alarms and state news refetch the
 * positions at most every 15 s (docs/LIVE.md).
 */
export default function FleetMapPage({ layers, popup, compact = false }: FleetMapExtras) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const fixedProject = compact ? undefined : Number(params.get('projectId')) || undefined;
  const settings = useMapSettings();
  const positions = usePositions(fixedProject);
  const data = positions.data;
  const canDetails = usePermission('device:detail');
  const [filter, setFilter] = useState<FleetFilter>({});
  const [handle, setHandle] = useState<MapHandle | undefined>(undefined);
  const [selected, setSelected] = useState<{ props: DeviceProps; at: L.LatLng } | undefined>(undefined);
  const [followed, setFollowed] = useState<number[]>([]);
  const layer = useRef<FleetLayer | undefined>(undefined);
  const fitted = useRef(false);

  const projectName = useCallback((id: number) => data?.projects.find((p) => p.id === id)?.name ?? '', [data]);
  const typeName = useCallback((id: number) => data?.types.find((x) => x.id === id)?.name ?? '', [data]);
  const stateText = useCallback(
    (online: boolean, level: number) => (level > 0 ? t('map:state.alarm', { level }) : t(online ? 'map:state.online' : 'map:state.offline')),
    [t],
  );

  // The layer lives with the map; its texts follow the language.
  useEffect(() => {
    if (!handle) return undefined;
    const l = new FleetLayer(handle.map, {
      colour: markerColour,
      clusterTitle: (count) => t('map:clusterTitle', { count: formatCount(count) }),
      clusterText: (count) => (count >= 10_000 ? `${Math.floor(count / 1000)}k` : formatCount(count)),
      deviceTitle: (d) => t('map:deviceTitle', { id: d.id, state: stateText(d.online === 1, d.level) }),
      onDevice: (props, at) => setSelected({ props, at }),
      onDrawn: (drawn) => setFollowed(drawn.slice(0, 200).map((d) => d.id)),
    });
    layer.current = l;
    return () => {
      l.destroy();
      layer.current = undefined;
    };
  }, [handle, t, stateText]);

  // The index: once per answer and filter (50,000 devices: bench/map.ts).
  const built = useMemo(() => {
    if (!data || !handle) return undefined;
    const started = performance.now();
    const b = buildIndex(data, filter, handle.datum.toMap);
    // How long the clustering index took (bench/map.ts reads it).
    handle.map.getContainer().dataset.indexMs = (performance.now() - started).toFixed(1);
    return b;
  }, [data, filter, handle]);
  const byId = useMemo(() => built?.byId ?? new Map<number, DeviceProps>(), [built]);
  useEffect(() => {
    layer.current?.setIndex(built?.index);
  }, [built, handle, t]);

  // The first answer frames the devices.
  useEffect(() => {
    if (!handle || !data || fitted.current) return;
    fitted.current = true;
    if (data.ids.length === 0) return;
    const bounds = L.latLngBounds([]);
    for (let i = 0; i < data.ids.length; i++) bounds.extend(handle.datum.toMap(data.lng[i]!, data.lat[i]!));
    handle.map.fitBounds(bounds, { padding: [24, 24], maxZoom: 12, animate: false });
  }, [handle, data]);

  // Live: the devices drawn on their own are followed; their state changes at once.
  const followKey = followed.join(',');
  const queryClient = useQueryClient();
  useEffect(() => {
    const ids = followKey ? followKey.split(',').map(Number) : [];
    const unwatch = ids.length > 0 ? live.watchDevices(ids) : undefined;
    return () => unwatch?.();
  }, [followKey]);
  useEffect(() => {
    let redraw: ReturnType<typeof setTimeout> | undefined;
    let refetch: ReturnType<typeof setTimeout> | undefined;
    let lastFetch = Date.now();
    const scheduleRedraw = () => {
      redraw ??= setTimeout(() => {
        redraw = undefined;
        layer.current?.draw();
      }, 1000);
    };
    const scheduleRefetch = () => {
      if (refetch) return;
      refetch = setTimeout(
        () => {
          refetch = undefined;
          lastFetch = Date.now();
          void queryClient.invalidateQueries({ queryKey: mapKeys.all });
        },
        Math.max(0, lastFetch + REFETCH_MS - Date.now()),
      );
    };
    const unsubscribe = live.subscribe((m) => {
      if (m.type === LiveType.DEVICE_STATUS) {
        const d = byId.get(m.deviceId);
        if (d && d.online !== (m.online ? 1 : 0)) {
          // The marker's and the answer's (which filters read) until the next refetch.
          d.online = m.online ? 1 : 0;
          if (data) data.online[d.i] = d.online;
          scheduleRedraw();
          scheduleRefetch();
        }
      } else if (m.type === LiveType.ALARMS) {
        for (const a of m.alarms) {
          const d = byId.get(a.deviceId);
          // A new alarm raises the marker's level at once; an ended one waits for the refetch.
          if (d && m.event === 'started' && a.level > d.level) {
            d.level = a.level;
            if (data) data.level[d.i] = a.level;
            scheduleRedraw();
          }
        }
        scheduleRefetch();
      } else if (m.type === LiveType.HOME_CHANGED) {
        scheduleRefetch();
      }
    });
    return () => {
      unsubscribe();
      clearTimeout(redraw);
      clearTimeout(refetch);
    };
  }, [byId, data, queryClient]);

  // The popup: Leaflet's, its content rendered by React into it.
  const [popupEl, setPopupEl] = useState<HTMLElement | undefined>(undefined);
  useEffect(() => {
    if (!handle || !selected) return undefined;
    const el = document.createElement('div');
    el.dataset.testid = 'fleet-popup';
    const p = L.popup({ minWidth: 220, maxWidth: 320, autoPanPadding: [24, 24] }).setLatLng(selected.at).setContent(el);
    p.on('remove', () => setSelected(undefined));
    p.openOn(handle.map);
    // Leaflet names its close button in English.
    p.getElement()?.querySelector('.leaflet-popup-close-button')?.setAttribute('aria-label', t('map:closePopup'));
    setPopupEl(el);
    return () => {
      p.off('remove');
      p.remove();
      setPopupEl(undefined);
    };
  }, [handle, selected, t]);

  if (compact && (!data || data.projects.length === 0)) return null;
  if (!settings) return <PageSpin />;
  const title = fixedProject
    ? t('map:projectTitle', { name: projectName(fixedProject) || `#${fixedProject}` })
    : t('map:title');
  const total = data?.ids.length ?? 0;
  const options = (list: MapPositions['projects'] | undefined) => (list ?? []).map((x) => ({ value: x.id, label: x.name }));

  return (
    <Card
      size={compact ? 'small' : undefined}
      title={compact ? <h2 className="dash-card-title">{title}</h2> : title}
      extra={compact ? <Link to="/project/map" data-testid="fleet-map-open">{t('map:open')}</Link> : undefined}
      data-testid={compact ? 'home-fleet-map' : 'fleet-map-page'}
      styles={{ body: { padding: 12 } }}
    >
      {!compact && (
        <Space wrap style={{ marginBottom: 8 }}>
          {!fixedProject && (
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              style={{ width: 200 }}
              placeholder={t('map:filters.project')}
              aria-label={t('map:filters.project')}
              data-testid="fleet-filter-project"
              value={filter.projectId}
              onChange={(v: number | undefined) => setFilter((f) => ({ ...f, projectId: v }))}
              options={[{ value: 0, label: t('map:noProject') }, ...options(data?.projects)]}
            />
          )}
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            style={{ width: 180 }}
            placeholder={t('map:filters.type')}
            aria-label={t('map:filters.type')}
            data-testid="fleet-filter-type"
            value={filter.typeId}
            onChange={(v: number | undefined) => setFilter((f) => ({ ...f, typeId: v }))}
            options={options(data?.types)}
          />
          <Select
            allowClear
            style={{ width: 160 }}
            placeholder={t('map:filters.state')}
            aria-label={t('map:filters.state')}
            data-testid="fleet-filter-state"
            value={filter.state}
            onChange={(v: FleetState | undefined) => setFilter((f) => ({ ...f, state: v }))}
            options={FLEET_STATES.map((s) => ({ value: s, label: t(`map:states.${s}`) }))}
          />
          <Typography.Text aria-live="polite" data-testid="fleet-count">
            {positions.isLoading
              ? t('map:loading')
              : t('map:shown', { shown: formatCount(built?.count ?? 0), total: formatCount(total) })}
          </Typography.Text>
          {data?.truncated && <Typography.Text type="warning">{t('map:truncated', { count: formatCount(total) })}</Typography.Text>}
        </Space>
      )}
      <Space wrap size={4} style={{ marginBottom: 8 }} aria-label={t('map:legend')} role="group" data-testid="fleet-legend">
        <Tag style={{ color: '#fff', background: ONLINE, borderColor: ONLINE }}>{t('map:state.online')}</Tag>
        <Tag style={{ color: '#fff', background: OFFLINE, borderColor: OFFLINE }}>{t('map:state.offline')}</Tag>
        {[1, 2, 3, 4].map((level) => (
          <AlarmLevelTag key={level} level={level} />
        ))}
      </Space>
      <BaseMap
        settings={settings}
        label={title}
        height={compact ? 320 : 'calc(100vh - 290px)'}
        style={compact ? undefined : { minHeight: 420 }}
        center={{ lng: 105, lat: 30 }}
        zoom={3}
        maxZoom={18}
        scrollWheelZoom={!compact}
        onMap={setHandle}
        data-testid="fleet-map"
      />
      {handle && fixedProject && layers?.(handle, fixedProject)}
      {popupEl &&
        selected &&
        data &&
        createPortal(
          <div style={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
            {popup?.(selected.props.id)}
            <Space size={4} wrap>
              <Tag style={{ color: '#fff', background: markerColour(selected.props.online === 1, 0), borderColor: 'transparent' }}>
                {t(selected.props.online === 1 ? 'map:state.online' : 'map:state.offline')}
              </Tag>
              {selected.props.level > 0 && <AlarmLevelTag level={selected.props.level} />}
            </Space>
            <Typography.Text type="secondary">
              {[projectName(data.project[selected.props.i]!) || t('map:noProject'), typeName(data.type[selected.props.i]!)].filter(Boolean).join(' · ')}
            </Typography.Text>
            {canDetails && (
              <Link to={`/project/info?id=${selected.props.id}`} data-testid="fleet-popup-details">
                {t('map:details')}
              </Link>
            )}
          </div>,
          popupEl,
        )}
    </Card>
  );
}
