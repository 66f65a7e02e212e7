import { useEffect, useRef, useState } from 'react';
import { theme } from 'antd';
import L from 'leaflet';
import type { MapSettings } from '@iot/contract';
import BaseMap, { type MapHandle } from './BaseMap';

/** A circle drawn over the map (a geo-fence), in its state's colour; `dashed`: a draft. */
export interface MapCircle {
  key: string;
  lng: number;
  lat: number;
  /** Metres. */
  radius: number;
  color: string;
  dashed?: boolean;
}

/**
 * A small map of one device's position (the details page): the console's map with one marker,
 * which follows lng/lat as they change (a GPS fix, an edit) keeping the zoom; optionally circles
 * (the device's geo-fences) and a click that picks a point.
 */
export default function DeviceMap({
  lng,
  lat,
  settings,
  height,
  label,
  circles,
  onPick,
}: {
  lng: number;
  lat: number;
  settings: MapSettings;
  height: number;
  /** Accessible name of the map region. */
  label: string;
  /** Circles drawn over the map (geo-fences); the view fits them when they change. */
  circles?: MapCircle[];
  /** A click on the map picks that point (WGS-84, lng wrapped to −180…180). */
  onPick?: (lng: number, lat: number) => void;
}) {
  const { token } = theme.useToken();
  const [handle, setHandle] = useState<MapHandle | undefined>(undefined);
  const marker = useRef<L.CircleMarker | undefined>(undefined);
  const pick = useRef(onPick);
  pick.current = onPick;
  const circleKey = JSON.stringify(circles ?? []);

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

  useEffect(() => {
    if (!handle) return undefined;
    const layer = L.layerGroup().addTo(handle.map);
    drawCircles(handle, layer, JSON.parse(circleKey) as MapCircle[]);
    return () => {
      layer.remove();
    };
  }, [handle, circleKey]);

  useEffect(() => {
    if (!handle) return undefined;
    const onClick = (e: L.LeafletMouseEvent) => {
      const p = e.latlng.wrap();
      const [pLng, pLat] = handle.datum.fromMap(p.lat, p.lng);
      pick.current?.(pLng, pLat);
    };
    handle.map.on('click', onClick);
    return () => {
      handle.map.off('click', onClick);
    };
  }, [handle]);

  return (
    <BaseMap
      settings={settings}
      label={label}
      height={height}
      center={{ lng, lat }}
      onMap={setHandle}
      style={onPick ? { cursor: 'crosshair' } : undefined}
      data-testid="device-map"
    />
  );
}

/** Draws the circles and fits the view to them, within the base's zoom. */
function drawCircles(handle: MapHandle, layer: L.LayerGroup, circles: MapCircle[]) {
  if (circles.length === 0) return;
  let bounds: L.LatLngBounds | undefined;
  for (const c of circles) {
    const circle = L.circle(handle.datum.toMap(c.lng, c.lat), {
      radius: c.radius,
      color: c.color,
      weight: 2,
      fillOpacity: 0.12,
      dashArray: c.dashed ? '6 6' : undefined,
      interactive: false,
      className: `device-map-circle device-map-circle-${c.key}`,
    }).addTo(layer);
    // A circle's bounds need the map's projection: it is on the map now.
    bounds = bounds ? bounds.extend(circle.getBounds()) : circle.getBounds();
  }
  if (bounds) handle.map.fitBounds(bounds.pad(0.2), { maxZoom: handle.map.getMaxZoom(), animate: false });
}
