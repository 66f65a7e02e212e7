import type { LocusPoints } from '@iot/contract';

/** Playback speeds offered; 1× plays the whole range in PLAY_RANGE_MS. */
export const PLAYBACK_SPEEDS = [1, 2, 4, 8, 16, 32] as const;
export const PLAY_RANGE_MS = 60_000;

/** The last point at or before `time` (0 before the first). Binary search over the times. */
export function indexAt(t: readonly number[], time: number): number {
  let lo = 0;
  let hi = t.length - 1;
  if (hi < 0 || time <= t[0]!) return 0;
  if (time >= t[hi]!) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (t[mid]! <= time) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Longitudes made continuous (a step never more than 180°), so a track across the antimeridian
 * is drawn across it, not back round the world. Leaflet accepts longitudes beyond ±180.
 */
export function unwrapLngs(lng: readonly number[]): number[] {
  const out: number[] = [];
  let shift = 0;
  for (let i = 0; i < lng.length; i++) {
    if (i > 0) {
      const d = lng[i]! - lng[i - 1]!;
      if (d > 180) shift -= 360;
      else if (d < -180) shift += 360;
    }
    out.push(lng[i]! + shift);
  }
  return out;
}

export interface PlaybackPoint {
  /** The fix at or before the time: its values are shown. */
  index: number;
  lat: number;
  /** Unwrapped (see unwrapLngs). */
  lng: number;
  /** Meters, interpolated between the two fixes. */
  distance: number;
}

/** Where the device was at `time`: interpolated between the fixes around it. */
export function positionAt(p: Pick<LocusPoints, 't' | 'lat' | 'distance'>, lngs: readonly number[], time: number): PlaybackPoint | null {
  const n = p.t.length;
  if (n === 0) return null;
  const i = indexAt(p.t, time);
  const j = Math.min(i + 1, n - 1);
  const span = p.t[j]! - p.t[i]!;
  const u = span > 0 ? Math.min(1, Math.max(0, (time - p.t[i]!) / span)) : 0;
  const mix = (a: number, b: number) => a + (b - a) * u;
  return { index: i, lat: mix(p.lat[i]!, p.lat[j]!), lng: mix(lngs[i]!, lngs[j]!), distance: mix(p.distance[i]!, p.distance[j]!) };
}

/** Track time advanced by `elapsedMs` of wall time at `speed`, over a range of `spanMs`. */
export const advance = (spanMs: number, speed: number, elapsedMs: number) => (spanMs / PLAY_RANGE_MS) * speed * elapsedMs;
