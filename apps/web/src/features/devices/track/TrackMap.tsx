import { useEffect, useRef, useState } from 'react';
import { theme } from 'antd';
import L from 'leaflet';
import type { LocusPoints, LocusStop, MapSettings } from '@iot/contract';
import BaseMap, { OUTLINE_ZOOM, TILE_ZOOM, type MapHandle } from '../../../components/map/BaseMap';
import type { PlaybackPoint } from './playback';

/** Pixels from the cursor within which the nearest point of the track is "under the cursor". */
const HOVER_PX = 24;

/** The index of the point nearest to a screen position (within HOVER_PX), by the map's projection. */
function nearest(m: L.Map, at: L.Point, points: readonly L.LatLng[]): number | null {
  let best: number | null = null;
  let bestD = HOVER_PX * HOVER_PX;
  for (let i = 0; i < points.length; i++) {
    const q = m.latLngToContainerPoint(points[i]!);
    const d = (q.x - at.x) ** 2 + (q.y - at.y) ** 2;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/**
 * A device's track on the console's map (components/map): the path, start and end, stops and the
 * playback marker, positions converted for the tiles' datum. Everything drawn is non-interactive;
 * the point under the cursor is the nearest point of the path in screen pixels (`onHover`).
 */
export default function TrackMap({
  points,
  lngs,
  stops,
  position,
  settings,
  height,
  label,
  onHover,
}: {
  points: LocusPoints;
  /** The points' longitudes made continuous (playback.ts unwrapLngs). */
  lngs: number[];
  stops: LocusStop[];
  position: PlaybackPoint | null;
  settings: MapSettings;
  height: number;
  label: string;
  onHover: (index: number | null) => void;
}) {
  const { token } = theme.useToken();
  const [handle, setHandle] = useState<MapHandle | undefined>(undefined);
  const marker = useRef<L.CircleMarker | undefined>(undefined);
  const hover = useRef(onHover);
  useEffect(() => {
    hover.current = onHover;
  });
  // The drawn points, for the point under the cursor.
  const drawn = useRef<L.LatLng[]>([]);
  const colors = {
    path: token.colorPrimary,
    start: token.colorSuccess,
    end: token.colorError,
    stop: token.colorWarning,
    ring: token.colorWhite,
  };
  const colorKey = JSON.stringify(colors);

  // The point under the cursor, looked up once per frame at most.
  useEffect(() => {
    if (!handle) return undefined;
    const m = handle.map;
    let frame = 0;
    const onMove = (e: L.LeafletMouseEvent) => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => hover.current(nearest(m, e.containerPoint, drawn.current)));
    };
    const onOut = () => {
      cancelAnimationFrame(frame);
      hover.current(null);
    };
    m.on('mousemove', onMove);
    m.on('mouseout', onOut);
    return () => {
      cancelAnimationFrame(frame);
      m.off('mousemove', onMove);
      m.off('mouseout', onOut);
    };
  }, [handle]);

  // The track: path, start, end and stops; the view fits it.
  useEffect(() => {
    if (!handle) return undefined;
    const m = handle.map;
    const c = JSON.parse(colorKey) as typeof colors;
    const latlngs = points.lat.map((lat, i) => L.latLng(handle.datum.toMap(lngs[i]!, lat)));
    drawn.current = latlngs;
    const layer = L.layerGroup().addTo(m);
    if (latlngs.length > 0) {
      const dot = (at: L.LatLng, color: string, radius: number, className: string) =>
        L.circleMarker(at, { radius, weight: 2, color: c.ring, fillColor: color, fillOpacity: 1, className, interactive: false }).addTo(layer);
      L.polyline(latlngs, { color: c.path, weight: 3, opacity: 0.9, interactive: false, className: 'track-path' }).addTo(layer);
      for (const s of stops) {
        // A stop's position as the path draws it (the same continuous longitude).
        const i = points.t.indexOf(Date.parse(s.from));
        dot(i >= 0 ? latlngs[i]! : L.latLng(handle.datum.toMap(s.lng, s.lat)), c.stop, 5, 'track-stop');
      }
      dot(latlngs[0]!, c.start, 7, 'track-start');
      dot(latlngs.at(-1)!, c.end, 7, 'track-end');
      const bounds = L.latLngBounds(latlngs);
      if (bounds.getNorthEast().equals(bounds.getSouthWest())) m.setView(bounds.getCenter(), handle.tiled ? TILE_ZOOM.initial : OUTLINE_ZOOM.max);
      else m.fitBounds(bounds, { padding: [24, 24] });
    }
    marker.current = L.circleMarker([0, 0], {
      radius: 8,
      weight: 3,
      color: c.ring,
      fillColor: c.path,
      fillOpacity: 1,
      className: 'track-playback-marker',
      interactive: false,
    });
    return () => {
      layer.remove();
      marker.current?.remove();
      marker.current = undefined;
    };
  }, [handle, points, lngs, stops, colorKey]);

  // The playback position moves the marker (shown once there is one).
  useEffect(() => {
    const mk = marker.current;
    if (!handle || !mk) return;
    if (!position) {
      mk.remove();
      return;
    }
    mk.setLatLng(handle.datum.toMap(position.lng, position.lat));
    if (!handle.map.hasLayer(mk)) mk.addTo(handle.map);
  }, [handle, position, points]);

  return (
    <BaseMap
      settings={settings}
      label={label}
      height={height}
      center={{ lng: 0, lat: 0 }}
      zoom={2}
      // The outline is drawn down to regional scale here: a track is often a few kilometres.
      maxZoom={settings.tileUrl ? undefined : 12}
      onMap={setHandle}
      data-testid="track-map"
    />
  );
}
