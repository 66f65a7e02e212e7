import { describe, expect, it } from 'vitest';
import type { MapPositions } from '@iot/contract';
import { buildIndex, matches, stateKey } from './fleet';

const asIs = (lng: number, lat: number): [number, number] => [lat, lng];

/** Four devices: two close together in Shenzhen, one in Madrid, one in Sydney. */
const data: MapPositions = {
  ids: [11, 12, 13, 14],
  lng: [114.05, 114.051, -3.7, 151.2],
  lat: [22.54, 22.541, 40.4, -33.9],
  online: [1, 0, 1, 0],
  level: [0, 3, 0, 1],
  project: [5, 5, 0, 6],
  type: [1, 1, 2, 1],
  projects: [],
  types: [],
  truncated: false,
};

describe('the fleet map’s filter and clustering', () => {
  it('filters by project (0: none), type and state', () => {
    const pick = (f: Parameters<typeof matches>[2]) => data.ids.filter((_, i) => matches(data, i, f));
    expect(pick({})).toEqual([11, 12, 13, 14]);
    expect(pick({ projectId: 5 })).toEqual([11, 12]);
    expect(pick({ projectId: 0 })).toEqual([13]);
    expect(pick({ typeId: 2 })).toEqual([13]);
    expect(pick({ state: 'online' })).toEqual([11, 13]);
    expect(pick({ state: 'offline' })).toEqual([12, 14]);
    expect(pick({ state: 'alarm' })).toEqual([12, 14]);
    expect(pick({ projectId: 5, state: 'alarm' })).toEqual([12]);
  });

  it('clusters near devices at country scale with their online count and worst level, apart at street scale', () => {
    const { index, count, byId } = buildIndex(data, {}, asIs);
    expect(count).toBe(4);
    const world = index.getClusters([-180, -85, 180, 85], 3);
    expect(world).toHaveLength(3);
    const cluster = world.find((f) => 'cluster' in f.properties)!;
    expect(cluster.properties).toMatchObject({ point_count: 2, online: 1, worst: 3 });
    expect(index.getClusters([-180, -85, 180, 85], 17)).toHaveLength(4);
    // A live change written into byId is what the next drawing reads.
    byId.get(13)!.online = 0;
    const madrid = index.getClusters([-10, 35, 0, 45], 17)[0]!;
    expect(madrid.properties).toMatchObject({ id: 13, online: 0 });
  });

  it('places devices where the map draws them (a datum conversion)', () => {
    const shifted = buildIndex(data, { typeId: 2 }, (lng, lat) => [lat + 1, lng + 2]);
    const [lng, lat] = shifted.index.getClusters([-180, -85, 180, 85], 17)[0]!.geometry.coordinates as [number, number];
    expect(lng).toBeCloseTo(-1.7, 6);
    expect(lat).toBeCloseTo(41.4, 6);
  });

  it('colours by the worst alarm level first, then online or offline', () => {
    expect(stateKey(true, 0)).toBe('online');
    expect(stateKey(false, 0)).toBe('offline');
    expect(stateKey(true, 4)).toBe('level4');
  });
});
