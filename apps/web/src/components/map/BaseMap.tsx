import { useEffect, useRef, type CSSProperties } from 'react';
import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { MapSettings } from '@iot/contract';
import { usePrefersReducedMotion } from '../../lib/reduced-motion';
import { datumFor, type Datum } from './datum';

/** Zoom levels: the bundled outline is country scale; tiles go down to streets. */
export const OUTLINE_ZOOM = { initial: 4, max: 7 };
export const TILE_ZOOM = { initial: 14, max: 18 };

/** The attribution is plain text from the server configuration; Leaflet writes it as HTML. */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What a screen gets to draw on the map: Leaflet's map and the datum conversion of its tiles. */
export interface MapHandle {
  map: L.Map;
  datum: Datum;
  /** Whether tiles are configured (street detail) or only the bundled outline is drawn. */
  tiled: boolean;
}

export interface BaseMapProps {
  settings: MapSettings;
  /** Accessible name of the map region. */
  label: string;
  height: number | string;
  /** Where the map opens, stored (WGS-84) position; the zoom defaults to the base's own. */
  center: { lng: number; lat: number };
  zoom?: number;
  /** Deepest zoom; defaults to the base's (street level with tiles, country scale without). */
  maxZoom?: number;
  /** Zoom with the wheel (a full-page map); off where the page scrolls under the map. */
  scrollWheelZoom?: boolean;
  /** Called with the map once it exists and with undefined when it is removed. */
  onMap?: (handle: MapHandle | undefined) => void;
  'data-testid'?: string;
  style?: CSSProperties;
}

/** Adds the bundled world outline (Natural Earth countries: coastlines and borders) under the rest. */
function addOutline(m: L.Map, colors: { border: string; land: string }, cancelled: () => boolean): void {
  m.attributionControl.addAttribution('Natural Earth');
  void import('./world-outline').then(({ worldOutline }) => {
    if (cancelled()) return;
    L.geoJSON(worldOutline, {
      interactive: false,
      style: { color: colors.border, weight: 0.6, fillColor: colors.land, fillOpacity: 1 },
    })
      .addTo(m)
      .bringToBack();
  });
}

/**
 * The console's one map (Leaflet, loaded only with a map). The base is the configured tile server
 * (MAP_TILE_URL, its attribution shown) or the world outline bundled with the console; when tiles
 * fail to load (an offline network, a tile server out of reach) the outline is drawn under them,
 * so the map is never a blank grey box. Screens add their layers through `onMap`, converting
 * stored positions with `datum` (GCJ-02 tiles, MAP_TILE_DATUM).
 */
export default function BaseMap({
  settings,
  label,
  height,
  center,
  zoom,
  maxZoom,
  scrollWheelZoom = false,
  onMap,
  'data-testid': testId,
  style,
}: BaseMapProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const reducedMotion = usePrefersReducedMotion();
  const el = useRef<HTMLDivElement>(null);
  // The map opens at the newest centre and zoom given, without being rebuilt when they change.
  const opening = useRef({ center, zoom });
  opening.current = { center, zoom };
  const onMapRef = useRef(onMap);
  onMapRef.current = onMap;
  const { tileUrl, tileAttribution, tileDatum } = settings;
  const zoomInTitle = t('map:zoomIn');
  const zoomOutTitle = t('map:zoomOut');
  const colors = { water: token.colorInfoBg, land: token.colorBgContainer, border: token.colorTextQuaternary };
  const colorKey = JSON.stringify(colors);

  useEffect(() => {
    const container = el.current;
    if (!container) return;
    const c = JSON.parse(colorKey) as typeof colors;
    const tiled = Boolean(tileUrl);
    const base = tiled ? TILE_ZOOM : OUTLINE_ZOOM;
    const datum = datumFor(tileDatum, tiled);
    const { center: at, zoom: z } = opening.current;
    const m = L.map(container, {
      center: datum.toMap(at.lng, at.lat),
      zoom: z ?? base.initial,
      maxZoom: maxZoom ?? base.max,
      minZoom: 1,
      zoomControl: false,
      scrollWheelZoom,
      worldCopyJump: true,
      // Zooms jump instead of gliding when the system asks for reduced motion.
      zoomAnimation: !reducedMotion,
      fadeAnimation: !reducedMotion,
      markerZoomAnimation: !reducedMotion,
    });
    m.attributionControl.setPrefix(false);
    L.control.zoom({ zoomInTitle, zoomOutTitle }).addTo(m);
    container.style.background = c.water;
    let cancelled = false;
    const isCancelled = () => cancelled;
    if (tileUrl) {
      let outlined = false;
      L.tileLayer(tileUrl, {
        maxZoom: maxZoom ?? base.max,
        attribution: escapeHtml(tileAttribution),
        // The page sends no Referer; tile services ask for the site's origin.
        referrerPolicy: 'strict-origin',
      })
        .on('tileerror', () => {
          // Tiles out of reach: the outline shows through where they are missing.
          if (outlined) return;
          outlined = true;
          container.dataset.fallback = 'outline';
          addOutline(m, c, isCancelled);
        })
        .addTo(m);
    } else {
      container.dataset.fallback = 'outline';
      addOutline(m, c, isCancelled);
    }
    // Card and tab layout changes resize the container: let Leaflet measure it again.
    const resize = new ResizeObserver(() => m.invalidateSize());
    resize.observe(container);
    onMapRef.current?.({ map: m, datum, tiled });
    return () => {
      cancelled = true;
      onMapRef.current?.(undefined);
      resize.disconnect();
      m.remove();
    };
  }, [tileUrl, tileAttribution, tileDatum, maxZoom, scrollWheelZoom, reducedMotion, zoomInTitle, zoomOutTitle, colorKey]);

  return (
    <div
      ref={el}
      role="region"
      aria-label={label}
      data-testid={testId}
      style={{ height, width: '100%', borderRadius: token.borderRadius, zIndex: 0, ...style }}
    />
  );
}
