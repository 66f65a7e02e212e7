import { distanceMeters, EARTH_RADIUS_M, STOP_MIN_SECONDS, STOP_SPEED_KMH } from '@iot/contract';

/**
 * The arithmetic of a track, on compact columns (typed arrays, no object per fix): cumulative
 * distance, stops, totals and Douglas–Peucker simplification in meters. Pure; the SQL that
 * fills the columns is in track.repo.ts.
 */

/** A device's fixes in time order, one column per field; NaN where the device sent no value. */
export interface Fixes {
  n: number;
  /** Epoch milliseconds. */
  t: Float64Array;
  lng: Float64Array;
  lat: Float64Array;
  /** km/h. */
  speed: Float64Array;
  /** Degrees clockwise from north. */
  direction: Float64Array;
  pdop: Float64Array;
  satellites: Float64Array;
}

export function emptyFixes(n: number): Fixes {
  return {
    n,
    t: new Float64Array(n),
    lng: new Float64Array(n),
    lat: new Float64Array(n),
    speed: new Float64Array(n),
    direction: new Float64Array(n),
    pdop: new Float64Array(n),
    satellites: new Float64Array(n),
  };
}

/** A still stretch counts as a stop from this long (ms). */
const STOP_MIN_MS = STOP_MIN_SECONDS * 1000;

/** Meters from the first fix to each fix, along the fixes (full resolution). */
export function cumulativeDistance(f: Fixes): Float64Array {
  const out = new Float64Array(f.n);
  for (let i = 1; i < f.n; i++) out[i] = out[i - 1]! + distanceMeters(f.lng[i - 1]!, f.lat[i - 1]!, f.lng[i]!, f.lat[i]!);
  return out;
}

/** Average km/h between fixes i-1 and i (Infinity when they share a time but not a place). */
function legSpeed(f: Fixes, cum: Float64Array, i: number): number {
  const m = cum[i]! - cum[i - 1]!;
  const ms = f.t[i]! - f.t[i - 1]!;
  if (ms <= 0) return m > 0 ? Infinity : 0;
  return (m / ms) * 3600;
}

export interface Stop {
  /** Indexes of its first and last fix. */
  first: number;
  last: number;
  from: number;
  to: number;
}

/**
 * Stops: maximal runs of still legs lasting at least STOP_MIN_MS. The leg between two
 * consecutive fixes is still when the device moved slower than STOP_SPEED_KMH on average over it
 * (this is what catches a parked device that sends no fixes until it drives off), or when both
 * fixes report a speed below it (GPS jitter around a parked device is not movement). A fix without
 * a reported speed counts with its leg's average speed.
 */
export function findStops(f: Fixes, cum: Float64Array): Stop[] {
  const stops: Stop[] = [];
  let start = -1;
  const close = (end: number) => {
    if (start >= 0 && f.t[end]! - f.t[start]! >= STOP_MIN_MS) stops.push({ first: start, last: end, from: f.t[start]!, to: f.t[end]! });
    start = -1;
  };
  for (let i = 1; i < f.n; i++) {
    const leg = legSpeed(f, cum, i);
    const a = Number.isNaN(f.speed[i - 1]!) ? leg : f.speed[i - 1]!;
    const b = Number.isNaN(f.speed[i]!) ? leg : f.speed[i]!;
    const still = leg < STOP_SPEED_KMH || (a < STOP_SPEED_KMH && b < STOP_SPEED_KMH);
    if (still) {
      if (start < 0) start = i - 1;
    } else close(i - 1);
  }
  if (f.n > 0) close(f.n - 1);
  return stops;
}

export interface Totals {
  distanceM: number;
  durationS: number;
  /** The highest reported speed (a fix without one: its leg's average), km/h; null without fixes. */
  maxSpeedKmh: number | null;
  /** Distance over duration, km/h; null when the duration is zero. */
  avgSpeedKmh: number | null;
  /** Time spent in stops. */
  stoppedS: number;
}

export function totalsOf(f: Fixes, cum: Float64Array, stops: readonly Stop[]): Totals {
  if (f.n === 0) return { distanceM: 0, durationS: 0, maxSpeedKmh: null, avgSpeedKmh: null, stoppedS: 0 };
  let max = Number.isNaN(f.speed[0]!) ? 0 : f.speed[0]!;
  for (let i = 1; i < f.n; i++) {
    const v = Number.isNaN(f.speed[i]!) ? legSpeed(f, cum, i) : f.speed[i]!;
    if (v > max && Number.isFinite(v)) max = v;
  }
  const distanceM = cum[f.n - 1]!;
  const durationMs = f.t[f.n - 1]! - f.t[0]!;
  return {
    distanceM,
    durationS: durationMs / 1000,
    maxSpeedKmh: max,
    avgSpeedKmh: durationMs > 0 ? (distanceM / durationMs) * 3600 : null,
    stoppedS: stops.reduce((s, x) => s + (x.to - x.from), 0) / 1000,
  };
}

const RAD = Math.PI / 180;
const M_PER_DEG = EARTH_RADIUS_M * RAD;

/** Degrees of longitude from `a` to `b` the short way (across the antimeridian when shorter). */
const dLng = (a: number, b: number) => {
  let d = b - a;
  if (d > 180) d -= 360;
  else if (d < -180) d += 360;
  return d;
};

/**
 * Douglas–Peucker importance of every fix, in meters: fix i is kept by Douglas–Peucker with
 * tolerance ε exactly when its importance is above ε (a fix's importance is its distance from the
 * chord it split, capped by the importance of the fix that made that chord). `anchors` (sorted
 * indexes, first and last included) are always kept: the line is simplified piece by piece
 * between them. Distances are to the chord as a segment, in a local plane at the chord (meters
 * east and north, longitudes the short way round), so the dropped fixes are within ε of the
 * simplified line. Iterative: no recursion depth limit.
 */
export function importance(f: Fixes, anchors: readonly number[]): Float64Array {
  const imp = new Float64Array(f.n);
  const stack: number[] = [];
  for (let k = 0; k < anchors.length; k++) {
    imp[anchors[k]!] = Infinity;
    if (k > 0) stack.push(anchors[k - 1]!, anchors[k]!, Infinity);
  }
  const { lng, lat } = f;
  while (stack.length > 0) {
    const cap = stack.pop()!;
    const b = stack.pop()!;
    const a = stack.pop()!;
    if (b - a < 2) continue;
    const kx = Math.cos(((lat[a]! + lat[b]!) / 2) * RAD) * M_PER_DEG;
    const bx = dLng(lng[a]!, lng[b]!) * kx;
    const by = (lat[b]! - lat[a]!) * M_PER_DEG;
    const len2 = bx * bx + by * by;
    let best = -1;
    let bestD2 = -1;
    for (let i = a + 1; i < b; i++) {
      const px = dLng(lng[a]!, lng[i]!) * kx;
      const py = (lat[i]! - lat[a]!) * M_PER_DEG;
      let u = len2 > 0 ? (px * bx + py * by) / len2 : 0;
      if (u < 0) u = 0;
      else if (u > 1) u = 1;
      const dx = px - u * bx;
      const dy = py - u * by;
      const d2 = dx * dx + dy * dy;
      if (d2 > bestD2) {
        bestD2 = d2;
        best = i;
      }
    }
    const d = Math.min(Math.sqrt(bestD2), cap);
    imp[best] = d;
    stack.push(a, best, d, best, b, d);
  }
  return imp;
}

/** A simplified line drops at least the fixes this close to it (GPS is good to a few meters). */
export const SIMPLIFY_MIN_TOLERANCE_M = 1;

export interface Simplified {
  /** Indexes of the kept fixes, in order. */
  keep: Uint32Array;
  /** Every dropped fix lies within this many meters of the kept line (0: nothing dropped). */
  toleranceM: number;
}

/**
 * Douglas–Peucker with a budget: the smallest tolerance (at least SIMPLIFY_MIN_TOLERANCE_M) that
 * keeps at most `maxPoints` fixes (the anchors always kept). Nothing is dropped when the fixes fit
 * the budget.
 */
export function simplify(f: Fixes, maxPoints: number, anchors: readonly number[]): Simplified {
  if (f.n <= maxPoints) return { keep: Uint32Array.from({ length: f.n }, (_, i) => i), toleranceM: 0 };
  const imp = importance(f, anchors);
  // The (maxPoints + 1)-th largest importance: keeping those strictly above it keeps at most maxPoints.
  const sorted = Float64Array.from(imp).sort();
  let eps = sorted[f.n - 1 - maxPoints]!;
  // More anchors than the budget: the anchors alone, within the largest importance of the rest.
  if (eps === Infinity) eps = sorted[sorted.findIndex((x) => x === Infinity) - 1] ?? 0;
  // Fixes closer to the line than GPS can tell apart are not worth a point of the budget.
  eps = Math.max(eps, SIMPLIFY_MIN_TOLERANCE_M);
  let count = 0;
  for (let i = 0; i < f.n; i++) if (imp[i]! > eps) count++;
  const keep = new Uint32Array(count);
  for (let i = 0, k = 0; i < f.n; i++) if (imp[i]! > eps) keep[k++] = i;
  return { keep, toleranceM: eps };
}

/** First and last fix and every stop's first and last fix: sorted, unique. */
export function anchorsOf(n: number, stops: readonly Stop[]): number[] {
  if (n === 0) return [];
  const set = new Set<number>([0, n - 1]);
  for (const s of stops) set.add(s.first).add(s.last);
  return [...set].sort((a, b) => a - b);
}
