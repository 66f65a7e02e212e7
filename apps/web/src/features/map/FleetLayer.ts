import L from 'leaflet';
import type { DeviceProps, FleetIndex } from './fleet';

export interface FleetLayerOptions {
  /** The marker colour of a state key (fleet.ts stateKey). */
  colour: (online: boolean, level: number) => string;
  clusterTitle: (count: number) => string;
  clusterText: (count: number) => string;
  deviceTitle: (p: DeviceProps) => string;
  onDevice: (p: DeviceProps, at: L.LatLng) => void;
  /** After each drawing: the devices drawn as markers of their own (the live channel follows them). */
  onDrawn?: (devices: DeviceProps[]) => void;
}

const wrap = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180;

/**
 * Draws a clustering index on a Leaflet map: the clusters and single devices of the view, drawn
 * again after every move and zoom (only what is on screen: a few hundred markers whatever the
 * fleet's size). A cluster zooms in on click or Enter; a device opens its popup.
 */
export class FleetLayer {
  private readonly group = L.layerGroup();
  private index: FleetIndex | undefined;
  /** Set when the map is removed (a rebuilt base, e.g. on a language switch): drawing stops. */
  private unloaded = false;

  constructor(
    private readonly map: L.Map,
    private readonly opts: FleetLayerOptions,
  ) {
    this.group.addTo(map);
    map.on('moveend', this.draw);
    map.once('unload', () => {
      this.unloaded = true;
    });
  }

  setIndex(index: FleetIndex | undefined): void {
    this.index = index;
    this.draw();
  }

  /** Draws the view again (a device's state changed in place). */
  readonly draw = (): void => {
    // The page's effects may still hold this layer for one render after its map was removed.
    if (this.unloaded) return;
    const started = performance.now();
    const map = this.map;
    this.group.clearLayers();
    const index = this.index;
    const drawn: DeviceProps[] = [];
    let clusters = 0;
    if (index) {
      const b = map.getBounds();
      const [west, east] = b.getEast() - b.getWest() >= 360 ? [-180, 180] : [wrap(b.getWest()), wrap(b.getEast())];
      const bbox: [number, number, number, number] = [west, Math.max(-90, b.getSouth()), east, Math.min(90, b.getNorth())];
      const zoom = Math.round(map.getZoom());
      for (const f of index.getClusters(bbox, zoom)) {
        const [lng, lat] = f.geometry.coordinates as [number, number];
        const at = L.latLng(lat, lng);
        const p = f.properties;
        if ('cluster' in p && p.cluster) {
          clusters++;
          const count = p.point_count;
          const size = count < 100 ? 30 : count < 1000 ? 38 : 46;
          const colour = this.opts.colour(p.online > 0, p.worst);
          const clusterId = p.cluster_id;
          L.marker(at, {
            title: this.opts.clusterTitle(count),
            keyboard: true,
            icon: L.divIcon({
              className: 'fleet-cluster',
              iconSize: [size, size],
              html: `<span style="background:${colour};width:${size}px;height:${size}px;line-height:${size}px">${this.opts.clusterText(count)}</span>`,
            }),
          })
            .on('click', () => map.setView(at, Math.min(index.getClusterExpansionZoom(clusterId), map.getMaxZoom())))
            .addTo(this.group);
        } else {
          const d = p as DeviceProps;
          drawn.push(d);
          L.marker(at, {
            title: this.opts.deviceTitle(d),
            keyboard: true,
            icon: L.divIcon({
              className: 'fleet-device',
              iconSize: [16, 16],
              html: `<span data-device="${d.id}" style="background:${this.opts.colour(d.online === 1, d.level)}"></span>`,
            }),
          })
            .on('click', () => this.opts.onDevice(d, at))
            .addTo(this.group);
        }
      }
    }
    // What was drawn (zoom:clusters:devices) and in how long, for tests and bench/map.ts.
    const container = map.getContainer();
    if (index) container.dataset.drawn = `${Math.round(map.getZoom())}:${clusters}:${drawn.length}`;
    else delete container.dataset.drawn;
    container.dataset.drawMs = (performance.now() - started).toFixed(1);
    this.opts.onDrawn?.(drawn);
  };

  destroy(): void {
    this.map.off('moveend', this.draw);
    this.group.remove();
  }
}
