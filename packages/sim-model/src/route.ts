import type { Rng } from './rng.js';

/** [lng, lat] in degrees. */
export type LngLat = [number, number];

/** A closed piecewise-linear route: a loop through a city's street grid. */
export interface Route {
  points: LngLat[];
  /** Length of each leg in metres (leg i goes from points[i] to points[i + 1]). */
  legs: number[];
  /** Length of the loop in metres. */
  length: number;
}

const M_PER_DEG_LAT = 110_540;
const mPerDegLng = (lat: number) => 111_320 * Math.cos((lat * Math.PI) / 180);

export interface RouteOptions {
  centre: LngLat;
  /** Street spacing in metres. */
  block?: number;
  /** Farthest a route goes from the centre, in metres. */
  radius?: number;
  /** Rotation of the street grid in degrees (cities are rarely aligned with north). */
  gridAngle?: number;
}

/**
 * A plausible drive: starting at a street corner near the centre, a random walk along the street
 * grid (straight on, or a turn left or right at a corner, never back), then back to the start along
 * the streets. The vehicle drives it in a loop.
 */
export function makeRoute(rng: Rng, opts: RouteOptions): Route {
  const block = opts.block ?? 400;
  const radius = opts.radius ?? 5000;
  const maxBlocks = Math.max(2, Math.floor(radius / block));
  const angle = ((opts.gridAngle ?? 0) * Math.PI) / 180;
  const start: [number, number] = [
    rng.int(-Math.floor(maxBlocks / 2), Math.floor(maxBlocks / 2)),
    rng.int(-Math.floor(maxBlocks / 2), Math.floor(maxBlocks / 2)),
  ];
  const dirs: [number, number][] = [
    [1, 0],
    [0, 1],
    [-1, 0],
    [0, -1],
  ];
  const corners: [number, number][] = [start];
  let [x, y] = start;
  let d = rng.int(0, 3);
  const legs = rng.int(4, 9);
  for (let i = 0; i < legs; i++) {
    if (i > 0) d = (d + rng.pick([1, 3, 0])) % 4; // left, right, or on at the next corner
    const [dx, dy] = dirs[d]!;
    let n = rng.int(1, 4);
    // Stay inside the radius: shorten or turn round before leaving the area.
    while (n > 0 && (Math.abs(x + dx * n) > maxBlocks || Math.abs(y + dy * n) > maxBlocks)) n--;
    if (n === 0) {
      d = (d + 2) % 4;
      continue;
    }
    x += dx * n;
    y += dy * n;
    corners.push([x, y]);
  }
  // Home along the streets: first across, then up or down.
  if (x !== start[0]) corners.push([start[0], y]);
  if (y !== start[1]) corners.push([start[0], start[1]]);
  if (corners.length < 3) {
    // A walk that came straight back: make it a block-sized square instead.
    corners.splice(1, corners.length - 1, [start[0] + 1, start[1]], [start[0] + 1, start[1] + 1], [start[0], start[1] + 1], start);
  }
  const last = corners[corners.length - 1]!;
  if (last[0] !== start[0] || last[1] !== start[1]) corners.push(start);

  const [clng, clat] = opts.centre;
  const points = corners.map(([gx, gy]): LngLat => {
    const mx = gx * block * Math.cos(angle) - gy * block * Math.sin(angle);
    const my = gx * block * Math.sin(angle) + gy * block * Math.cos(angle);
    return [clng + mx / mPerDegLng(clat), clat + my / M_PER_DEG_LAT];
  });
  const legLengths = points.slice(1).map((p, i) => distance(points[i]!, p));
  return { points, legs: legLengths, length: legLengths.reduce((a, b) => a + b, 0) };
}

/** Where a vehicle is after driving `along` metres from the start (wrapping round the loop). */
export function positionOn(route: Route, along: number): { at: LngLat; direction: number } {
  let rest = ((along % route.length) + route.length) % route.length;
  for (let i = 0; i < route.legs.length; i++) {
    const leg = route.legs[i]!;
    const a = route.points[i]!;
    const b = route.points[i + 1]!;
    if (rest <= leg || i === route.legs.length - 1) {
      const f = leg > 0 ? Math.min(1, rest / leg) : 0;
      return { at: [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f], direction: bearing(a, b) };
    }
    rest -= leg;
  }
  return { at: route.points[0]!, direction: 0 };
}

/** Metres between two points (equirectangular: exact enough inside a city). */
export function distance(a: LngLat, b: LngLat): number {
  const lat = (a[1] + b[1]) / 2;
  const dx = (b[0] - a[0]) * mPerDegLng(lat);
  const dy = (b[1] - a[1]) * M_PER_DEG_LAT;
  return Math.hypot(dx, dy);
}

/** Degrees clockwise from north, 0–360. */
export function bearing(a: LngLat, b: LngLat): number {
  const lat = (a[1] + b[1]) / 2;
  const dx = (b[0] - a[0]) * mPerDegLng(lat);
  const dy = (b[1] - a[1]) * M_PER_DEG_LAT;
  const deg = (Math.atan2(dx, dy) * 180) / Math.PI;
  return deg < 0 ? deg + 360 : deg;
}
