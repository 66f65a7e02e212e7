import { useEffect, useRef } from 'react';
import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { LocusPoints, LocusStop, MapSettings } from '@iot/contract';
// The details map's basemap settings (the shared map component replaces both at merge: issue #35).
import { escapeHtml, OUTLINE_ZOOM, TILE_ZOOM } from '../details/DeviceMap';
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
 * A device's track on a Leaflet map: the path, start and end, stops and the playback marker. The
 * base is the configured tile server or the world outline bundled with the console (as on the
 * details page), so nothing is fetched from elsewhere. Everything drawn is non-interactive; the
 * point under the cursor is the nearest point of the path in screen pixels (`onHover`).
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
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const el = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | undefined>(undefined);
  const marker = useRef<L.CircleMarker | undefined>(undefined);
  const hover = useRef(onHover);
  useEffect(() => {
    hover.current = onHover;
  });
  // The drawn points, for the point under the cursor.
  const drawn = useRef<L.LatLng[]>([]);
  const { tileUrl, tileAttribution } = settings;
  const zoomInTitle = t('devicedetail:map.zoomIn');
  const zoomOutTitle = t('devicedetail:map.zoomOut');
  const colors = {
    water: token.colorInfoBg,
    land: token.colorBgContainer,
    border: token.colorTextQuaternary,
    path: token.colorPrimary,
    start: token.colorSuccess,
    end: token.colorError,
    stop: token.colorWarning,
    ring: token.colorWhite,
  };
  const colorKey = JSON.stringify(colors);

  // The map and its base: built once per tile setting.
  useEffect(() => {
    const container = el.current;
    if (!container) return;
    const c = JSON.parse(colorKey) as typeof colors;
    const zoom = tileUrl ? TILE_ZOOM : OUTLINE_ZOOM;
    const m = L.map(container, { center: [0, 0], zoom: 2, maxZoom: tileUrl ? zoom.max : 12, minZoom: 1, zoomControl: false, scrollWheelZoom: false });
    map.current = m;
    m.attributionControl.setPrefix(false);
    L.control.zoom({ zoomInTitle, zoomOutTitle }).addTo(m);
    container.style.background = c.water;
    let cancelled = false;
    if (tileUrl) {
      L.tileLayer(tileUrl, { maxZoom: zoom.max, attribution: escapeHtml(tileAttribution), referrerPolicy: 'strict-origin' }).addTo(m);
    } else {
      m.attributionControl.addAttribution('Natural Earth');
      void import('../details/world-outline').then(({ worldOutline }) => {
        if (cancelled) return;
        L.geoJSON(worldOutline, { interactive: false, style: { color: c.border, weight: 0.6, fillColor: c.land, fillOpacity: 1 } })
          .addTo(m)
          .bringToBack();
      });
    }
    // The point under the cursor, looked up once per frame at most.
    let frame = 0;
    const onMove = (e: L.LeafletMouseEvent) => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => hover.current(nearest(m, e.containerPoint, drawn.current)));
    };
    m.on('mousemove', onMove);
    m.on('mouseout', () => {
      cancelAnimationFrame(frame);
      hover.current(null);
    });
    const resize = new ResizeObserver(() => m.invalidateSize());
    resize.observe(container);
    return () => {
      cancelled = true;
      cancelAnimationFrame(frame);
      resize.disconnect();
      m.remove();
      map.current = undefined;
    };
  }, [tileUrl, tileAttribution, zoomInTitle, zoomOutTitle, colorKey]);

  // The track: path, start, end and stops; the view fits it.
  useEffect(() => {
    const m = map.current;
    if (!m) return;
    const c = JSON.parse(colorKey) as typeof colors;
    const latlngs = points.lat.map((lat, i) => L.latLng(lat, lngs[i]!));
    drawn.current = latlngs;
    const layer = L.layerGroup().addTo(m);
    if (latlngs.length > 0) {
      const dot = (at: L.LatLng, color: string, radius: number, className: string) =>
        L.circleMarker(at, { radius, weight: 2, color: c.ring, fillColor: color, fillOpacity: 1, className, interactive: false }).addTo(layer);
      L.polyline(latlngs, { color: c.path, weight: 3, opacity: 0.9, interactive: false, className: 'track-path' }).addTo(layer);
      for (const s of stops) {
        // A stop's position as the path draws it (the same continuous longitude).
        const i = points.t.indexOf(Date.parse(s.from));
        dot(i >= 0 ? latlngs[i]! : L.latLng(s.lat, s.lng), c.stop, 5, 'track-stop');
      }
      dot(latlngs[0]!, c.start, 7, 'track-start');
      dot(latlngs.at(-1)!, c.end, 7, 'track-end');
      const bounds = L.latLngBounds(latlngs);
      if (bounds.getNorthEast().equals(bounds.getSouthWest())) m.setView(bounds.getCenter(), tileUrl ? TILE_ZOOM.initial : OUTLINE_ZOOM.max);
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
  }, [points, lngs, stops, colorKey, tileUrl]);

  // The playback position moves the marker (shown once there is one).
  useEffect(() => {
    const m = map.current;
    const mk = marker.current;
    if (!m || !mk) return;
    if (!position) {
      mk.remove();
      return;
    }
    mk.setLatLng([position.lat, position.lng]);
    if (!m.hasLayer(mk)) mk.addTo(m);
  }, [position, points]);

  return (
    <div
      ref={el}
      role="region"
      aria-label={label}
      data-testid="track-map"
      style={{ height, width: '100%', borderRadius: token.borderRadius, zIndex: 0 }}
    />
  );
}
