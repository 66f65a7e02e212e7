import {
  ErrorCode,
  LOCUS_DEFAULT_SPAN_MS,
  LOCUS_MAX_FIXES,
  type LocusData,
  type LocusRange,
  type locusExportQuerySchema,
  type locusQuerySchema,
} from '@iot/contract';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { refuse } from '../../lib/errors.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { DeviceService } from '../device/device.service.js';
import { trackCsv, trackGpx } from './track.export.js';
import { anchorsOf, cumulativeDistance, findStops, simplify, totalsOf, type Fixes } from './track.math.js';
import * as repo from './track.repo.js';

type LocusQuery = z.output<typeof locusQuerySchema>;
type ExportQuery = z.output<typeof locusExportQuerySchema>;

/** NaN (not sent) as null. */
const orNull = (x: number) => (Number.isNaN(x) ? null : x);
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** A track read and measured: the fixes, their cumulative distance, the stops and the kept indexes. */
interface Measured {
  fixes: Fixes;
  distance: Float64Array;
  keep: Uint32Array;
  toleranceM: number;
  truncated: boolean;
  data: Omit<LocusData, 'points' | 'from' | 'to'>;
}

/**
 * Tracks (§7 /device/locus): a device's GPS fixes over a time range, measured (cumulative
 * distance, totals, stops) at full resolution and simplified to a point budget for drawing
 * (Douglas–Peucker in meters, the start, end and every stop's ends kept); the same range as CSV
 * or GPX. Every read first checks that the caller sees the device (DeviceService.basic: 40400
 * otherwise, as for a device that does not exist).
 */
export class TrackService {
  constructor(
    private readonly db: Db,
    private readonly devices: DeviceService,
  ) {}

  /**
   * Reads and measures the range. `maxPoints` simplifies (else every fix is kept); the fixes' own
   * direction, PDOP and satellites are read for every fix with `details`, else looked up for the
   * kept ones only (a third less to read: bench/README.md "Tracks").
   */
  private async measure(q: { id: number; from: string; to: string }, maxPoints: number | undefined, details: boolean): Promise<Measured> {
    const all = await repo.fixesIn(this.db, { deviceId: q.id, from: new Date(q.from), to: new Date(q.to) }, LOCUS_MAX_FIXES + 1, { details });
    const truncated = all.n > LOCUS_MAX_FIXES;
    const fixes = truncated ? sliceFixes(all, LOCUS_MAX_FIXES) : all;
    const distance = cumulativeDistance(fixes);
    const stops = findStops(fixes, distance);
    const totals = totalsOf(fixes, distance, stops);
    const { keep, toleranceM } =
      maxPoints === undefined ? { keep: Uint32Array.from({ length: fixes.n }, (_, i) => i), toleranceM: 0 } : simplify(fixes, maxPoints, anchorsOf(fixes.n, stops));
    if (!details && keep.length > 0) {
      const found = await repo.detailsAt(this.db, q.id, Array.from(keep, (i) => fixes.t[i]!));
      keep.forEach((i, k) => {
        fixes.direction[i] = found.direction[k]!;
        fixes.pdop[i] = found.pdop[k]!;
        fixes.satellites[i] = found.satellites[k]!;
      });
    }
    return {
      fixes,
      distance,
      keep,
      toleranceM,
      truncated,
      data: {
        read: fixes.n,
        kept: keep.length,
        truncated,
        toleranceM: round(toleranceM, 2),
        totals: {
          distanceM: round(totals.distanceM, 1),
          durationS: totals.durationS,
          maxSpeedKmh: totals.maxSpeedKmh === null ? null : round(totals.maxSpeedKmh, 2),
          avgSpeedKmh: totals.avgSpeedKmh === null ? null : round(totals.avgSpeedKmh, 2),
          stoppedS: totals.stoppedS,
          stops: stops.length,
        },
        stops: stops.map((s) => ({
          from: new Date(s.from).toISOString(),
          to: new Date(s.to).toISOString(),
          durationS: (s.to - s.from) / 1000,
          lng: fixes.lng[s.first]!,
          lat: fixes.lat[s.first]!,
        })),
      },
    };
  }

  async locus(ctx: AuthContext, q: LocusQuery): Promise<LocusData> {
    await this.devices.basic(ctx, q.id);
    const m = await this.measure(q, q.maxPoints, false);
    const { fixes: f, distance, keep } = m;
    const n = keep.length;
    const points: LocusData['points'] = { t: [], lng: [], lat: [], speed: [], direction: [], pdop: [], satellites: [], distance: [] };
    for (let k = 0; k < n; k++) {
      const i = keep[k]!;
      // Rounded to what a device can tell (1e-7° is 1 cm; hundredths of a km/h, degree, PDOP):
      // a position's 17 digits cost the answer bytes, not the user anything.
      points.t.push(f.t[i]!);
      points.lng.push(round(f.lng[i]!, 7));
      points.lat.push(round(f.lat[i]!, 7));
      points.speed.push(orNull(round(f.speed[i]!, 2)));
      points.direction.push(orNull(round(f.direction[i]!, 2)));
      points.pdop.push(orNull(round(f.pdop[i]!, 2)));
      points.satellites.push(orNull(f.satellites[i]!));
      points.distance.push(round(distance[i]!, 1));
    }
    return { from: new Date(q.from).toISOString(), to: new Date(q.to).toISOString(), ...m.data, points };
  }

  /**
   * Where the track screen opens: a day, up to now when the device sent a fix within the last
   * day, else up to its newest fix (a device parked last week opens on its last drive, not on an
   * empty map); from the first fix of that day.
   */
  async locusRange(ctx: AuthContext, deviceId: number, now = Date.now()): Promise<LocusRange> {
    await this.devices.basic(ctx, deviceId);
    const last = (await repo.lastFixAt(this.db, deviceId))?.getTime();
    const iso = (ms: number) => new Date(ms).toISOString();
    if (last === undefined) return { from: iso(now - LOCUS_DEFAULT_SPAN_MS), to: iso(now), basis: 'none' };
    const recent = last > now - LOCUS_DEFAULT_SPAN_MS;
    // Ranges end exclusive: one second past the newest fix keeps it in.
    const to = recent ? Math.max(now, last + 1000) : last + 1000;
    const start = to - LOCUS_DEFAULT_SPAN_MS;
    const first = (await repo.firstFixAt(this.db, { deviceId, from: new Date(start), to: new Date(to) }))?.getTime();
    return { from: iso(Math.max(start, first ?? start)), to: iso(to), basis: recent ? 'recent' : 'past' };
  }

  /**
   * The range as a file: CSV (UTF-8 with a BOM, one row per fix) or GPX 1.1 (one track segment;
   * speed and course in Garmin's TrackPointExtension). `full`: every fix, refused past
   * LOCUS_MAX_FIXES (counted in the database before anything is read); `simplified`: the points
   * /device/locus answers for the same range and budget.
   */
  async locusExport(ctx: AuthContext, q: ExportQuery): Promise<{ body: Buffer; filename: string; type: string }> {
    const device = await this.devices.basic(ctx, q.id);
    const full = q.resolution === 'full';
    const range = { deviceId: q.id, from: new Date(q.from), to: new Date(q.to) };
    if (full && (await repo.countFixes(this.db, range, LOCUS_MAX_FIXES + 1)) > LOCUS_MAX_FIXES) {
      throw refuse(ErrorCode.VALIDATION, 'locusTooManyFixes', { field: 'to', params: { max: LOCUS_MAX_FIXES } });
    }
    const m = await this.measure(q, full ? undefined : q.maxPoints, full);
    const track = { fixes: m.fixes, distance: m.distance, keep: m.keep };
    const base = `track-${device.sn.replace(/[^A-Za-z0-9_.-]/g, '_')}-${q.from.slice(0, 10)}${full ? '' : '-simplified'}`;
    if (q.format === 'gpx') {
      return { body: await trackGpx(track, device.name || device.sn), filename: `${base}.gpx`, type: 'application/gpx+xml; charset=utf-8' };
    }
    return { body: await trackCsv(track), filename: `${base}.csv`, type: 'text/csv; charset=utf-8' };
  }
}

/** The first `n` fixes (views, no copy). */
function sliceFixes(f: Fixes, n: number): Fixes {
  return {
    n,
    t: f.t.subarray(0, n),
    lng: f.lng.subarray(0, n),
    lat: f.lat.subarray(0, n),
    speed: f.speed.subarray(0, n),
    direction: f.direction.subarray(0, n),
    pdop: f.pdop.subarray(0, n),
    satellites: f.satellites.subarray(0, n),
  };
}
