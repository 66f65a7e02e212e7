import { useEffect, useRef, useState } from 'react';
import { theme } from 'antd';
import L from 'leaflet';
import type { MapSettings } from '@iot/contract';
import BaseMap, { type MapHandle } from './BaseMap';

/**
 * A small map of one device's position (the details page): the console's map with one marker,
 * which follows lng/lat as they change (a GPS fix, an edit) keeping the zoom.
 */
export default function DeviceMap({
  lng,
  lat,
  settings,
  height,
  label,
}: {
  lng: number;
  lat: number;
  settings: MapSettings;
  height: number;
  /** Accessible name of the map region. */
  label: string;
}) {
  const { token } = theme.useToken();
  const [handle, setHandle] = useState<MapHandle | undefined>(undefined);
  const marker = useRef<L.CircleMarker | undefined>(undefined);

  useEffect(() => {
    if (!handle) return undefined;
    const m = L.circleMarker(handle.datum.toMap(lng, lat), {
      radius: 7,
      weight: 2,
      color: token.colorWhite,
      fillColor: token.colorPrimary,
      fillOpacity: 1,
      className: 'device-map-marker',
      interactive: false,
    }).addTo(handle.map);
    marker.current = m;
    return () => {
      m.remove();
      marker.current = undefined;
    };
    // The marker is made once per map; positions move it below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [handle, token.colorWhite, token.colorPrimary]);

  useEffect(() => {
    if (!handle) return;
    const at = handle.datum.toMap(lng, lat);
    marker.current?.setLatLng(at);
    handle.map.panTo(at);
  }, [handle, lng, lat]);

  return (
    <BaseMap
      settings={settings}
      label={label}
      height={height}
      center={{ lng, lat }}
      onMap={setHandle}
      data-testid="device-map"
    />
  );
}
