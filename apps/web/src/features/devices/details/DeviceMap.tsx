import { useEffect, useRef } from 'react';
import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { MapSettings } from '@iot/contract';

/** Zoom levels: the bundled outline is country scale; tiles go down to streets. */
export const OUTLINE_ZOOM = { initial: 4, max: 7 };
export const TILE_ZOOM = { initial: 14, max: 18 };

/** The attribution is plain text from the server configuration; Leaflet writes it as HTML. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A small map of one device's position (Leaflet, loaded only with this component). The base is
 * the configured tile server (MAP_TILE_URL) or, by default, the world outline bundled with the
 * console, so nothing is fetched from elsewhere. The marker follows lng/lat as they change.
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
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const el = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | undefined>(undefined);
  const marker = useRef<L.CircleMarker | undefined>(undefined);
  // The newest position: the map opens there, and moving it does not rebuild the map.
  const position = useRef<L.LatLngTuple>([lat, lng]);
  const { tileUrl, tileAttribution } = settings;
  const zoomInTitle = t('devicedetail:map.zoomIn');
  const zoomOutTitle = t('devicedetail:map.zoomOut');
  const colors = {
    water: token.colorInfoBg,
    land: token.colorBgContainer,
    border: token.colorTextQuaternary,
    marker: token.colorPrimary,
    ring: token.colorWhite,
  };
  const colorKey = JSON.stringify(colors);

  // A new position (a GPS fix, an edit) moves the marker and the view, keeping the zoom. Declared
  // before the map's effect so that one opens at the newest position.
  useEffect(() => {
    position.current = [lat, lng];
    marker.current?.setLatLng(position.current);
    map.current?.panTo(position.current);
  }, [lat, lng]);

  useEffect(() => {
    const container = el.current;
    if (!container) return;
    const c = JSON.parse(colorKey) as typeof colors;
    const zoom = tileUrl ? TILE_ZOOM : OUTLINE_ZOOM;
    const m = L.map(container, {
      center: position.current,
      zoom: zoom.initial,
      maxZoom: zoom.max,
      minZoom: 1,
      zoomControl: false,
      // The page scrolls under the wheel; zoom with the buttons, +/- or a double click.
      scrollWheelZoom: false,
      worldCopyJump: true,
    });
    map.current = m;
    m.attributionControl.setPrefix(false);
    L.control.zoom({ zoomInTitle, zoomOutTitle }).addTo(m);
    container.style.background = c.water;
    let cancelled = false;
    if (tileUrl) {
      L.tileLayer(tileUrl, {
        maxZoom: zoom.max,
        attribution: escapeHtml(tileAttribution),
        // The page sends no Referer; tile services ask for the site's origin.
        referrerPolicy: 'strict-origin',
      }).addTo(m);
    } else {
      m.attributionControl.addAttribution('Natural Earth');
      void import('./world-outline').then(({ worldOutline }) => {
        if (cancelled) return;
        L.geoJSON(worldOutline, {
          interactive: false,
          style: { color: c.border, weight: 0.6, fillColor: c.land, fillOpacity: 1 },
        })
          .addTo(m)
          .bringToBack();
      });
    }
    marker.current = L.circleMarker(position.current, {
      radius: 7,
      weight: 2,
      color: c.ring,
      fillColor: c.marker,
      fillOpacity: 1,
      className: 'device-map-marker',
      interactive: false,
    }).addTo(m);
    // Card and tab layout changes resize the container: let Leaflet measure it again.
    const resize = new ResizeObserver(() => m.invalidateSize());
    resize.observe(container);
    return () => {
      cancelled = true;
      resize.disconnect();
      m.remove();
      map.current = undefined;
      marker.current = undefined;
    };
  }, [tileUrl, tileAttribution, zoomInTitle, zoomOutTitle, colorKey]);

  return (
    <div
      ref={el}
      role="region"
      aria-label={label}
      data-testid="device-map"
      style={{ height, width: '100%', borderRadius: token.borderRadius, zIndex: 0 }}
    />
  );
}
