import Supercluster, { type PointFeature } from 'supercluster';
import type { MapPositions } from '@iot/contract';

/** The state filter of the fleet map: online, offline, or with an active alarm (warning level > 0). */
export const FLEET_STATES = ['online', 'offline', 'alarm'] as const;
export type FleetState = (typeof FLEET_STATES)[number];

export interface FleetFilter {
  projectId?: number;
  typeId?: number;
  state?: FleetState;
}

/** A device on the map: its row in the answer's columns, its state and level. */
export interface DeviceProps {
  /** Index into the answer's columns. */
  i: number;
  id: number;
  online: number;
  level: number;
}

/** What a cluster knows of its devices: how many are online and the worst warning level. */
export interface ClusterProps {
  online: number;
  worst: number;
}

export type FleetIndex = Supercluster<DeviceProps, ClusterProps>;

/**
 * Clusters down to this zoom; deeper (a street, a depot), every device is its own marker. Each
 * level costs a pass over the devices when the index is built: 16 took twice as long as 14
 * (bench/README.md "Fleet map").
 */
export const CLUSTER_MAX_ZOOM = 14;

export function matches(data: MapPositions, i: number, f: FleetFilter): boolean {
  if (f.projectId !== undefined && data.project[i] !== f.projectId) return false;
  if (f.typeId !== undefined && data.type[i] !== f.typeId) return false;
  switch (f.state) {
    case 'online':
      return data.online[i] === 1;
    case 'offline':
      return data.online[i] === 0;
    case 'alarm':
      return data.level[i]! > 0;
    default:
      return true;
  }
}

/**
 * The clustering index of the devices that pass the filter, positioned where the map draws them
 * (`toMap`: WGS-84 as stored, or converted for GCJ-02 tiles; Leaflet's [lat, lng]). Built once per
 * answer and filter: 50,000 devices index in well under a second (bench/map.ts). `byId` holds
 * the devices' properties, which the index shares: a live state change written there shows at
 * the next drawing.
 */
export function buildIndex(
  data: MapPositions,
  filter: FleetFilter,
  toMap: (lng: number, lat: number) => [number, number],
): { index: FleetIndex; count: number; byId: Map<number, DeviceProps> } {
  const points: PointFeature<DeviceProps>[] = [];
  const byId = new Map<number, DeviceProps>();
  for (let i = 0; i < data.ids.length; i++) {
    if (!matches(data, i, filter)) continue;
    const [lat, lng] = toMap(data.lng[i]!, data.lat[i]!);
    const properties = { i, id: data.ids[i]!, online: data.online[i]!, level: data.level[i]! };
    byId.set(properties.id, properties);
    points.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [lng, lat] }, properties });
  }
  const index = new Supercluster<DeviceProps, ClusterProps>({
    radius: 80,
    maxZoom: CLUSTER_MAX_ZOOM,
    map: (p) => ({ online: p.online, worst: p.level }),
    reduce: (acc, p) => {
      acc.online += p.online;
      if (p.worst > acc.worst) acc.worst = p.worst;
    },
  });
  index.load(points);
  return { index, count: points.length, byId };
}

/** The colour key of a device or cluster: its worst alarm level, else online or offline. */
export function stateKey(online: boolean, level: number): 'online' | 'offline' | `level${number}` {
  if (level > 0) return `level${level}`;
  return online ? 'online' : 'offline';
}
