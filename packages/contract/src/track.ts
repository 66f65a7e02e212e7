import { z } from 'zod';
import { idSchema, isoDateTimeSchema } from './envelope.js';
import { LOCUS_DEFAULT_POINTS, LOCUS_MAX_POINTS, LOCUS_MAX_RANGE_DAYS } from './track-rules.js';

/**
 * Tracks (§1, §3 GPS data, §7 /device/locus): a device's GPS fixes over a time range with their
 * cumulative distance, the totals and stops, simplified on the server for long ranges; the same
 * range as CSV or GPX. Design: docs/decisions/0032-track-reads-and-simplification.md.
 */

const rangeSchema = z.object({
  id: idSchema,
  from: isoDateTimeSchema,
  to: isoDateTimeSchema,
});
const checkRange = <T extends { from: string; to: string }>(q: T, ctx: z.RefinementCtx) => {
  const from = Date.parse(q.from);
  const to = Date.parse(q.to);
  if (!(from < to)) ctx.addIssue({ code: 'custom', path: ['to'], message: 'the end must be after the start' });
  else if (to - from > LOCUS_MAX_RANGE_DAYS * 86_400_000) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: `at most ${LOCUS_MAX_RANGE_DAYS} days` });
  }
};

export const locusQuerySchema = rangeSchema
  .extend({
    /** At most this many points are answered (start, end and stops always among them). */
    maxPoints: z.coerce.number().int().min(100).max(LOCUS_MAX_POINTS).default(LOCUS_DEFAULT_POINTS),
  })
  .superRefine(checkRange);

/**
 * The kept fixes as columns (one array per field, the i-th entries one fix), in time order:
 * compact to send and to draw. `distance` is meters from the range's first fix along every fix
 * read (not along the simplified line). Null: the device did not send that value.
 */
export const locusPointsSchema = z.object({
  /** Epoch milliseconds. */
  t: z.array(z.number()),
  lng: z.array(z.number()),
  lat: z.array(z.number()),
  /** km/h. */
  speed: z.array(z.number().nullable()),
  /** Degrees clockwise from north. */
  direction: z.array(z.number().nullable()),
  pdop: z.array(z.number().nullable()),
  satellites: z.array(z.number().nullable()),
  /** Cumulative meters. */
  distance: z.array(z.number()),
});
export type LocusPoints = z.infer<typeof locusPointsSchema>;

export const locusStopSchema = z.object({
  from: z.string(),
  to: z.string(),
  durationS: z.number(),
  lng: z.number(),
  lat: z.number(),
});
export type LocusStop = z.infer<typeof locusStopSchema>;

export const locusTotalsSchema = z.object({
  /** Meters along every fix read. */
  distanceM: z.number(),
  /** From the first fix to the last. */
  durationS: z.number(),
  /** The highest reported speed (a fix without one: the average from the fix before it). */
  maxSpeedKmh: z.number().nullable(),
  /** Distance over duration. */
  avgSpeedKmh: z.number().nullable(),
  /** Time spent in stops. */
  stoppedS: z.number(),
  stops: z.number().int(),
});
export type LocusTotals = z.infer<typeof locusTotalsSchema>;

export const locusDataSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Fixes read in the range (at most LOCUS_MAX_FIXES: `truncated` says more were there). */
  read: z.number().int(),
  /** Points answered. */
  kept: z.number().int(),
  truncated: z.boolean(),
  /** Every fix read lies within this many meters of the answered line (0: nothing was dropped). */
  toleranceM: z.number(),
  points: locusPointsSchema,
  totals: locusTotalsSchema,
  stops: z.array(locusStopSchema),
});
export type LocusData = z.infer<typeof locusDataSchema>;

export const locusExportQuerySchema = rangeSchema
  .extend({
    format: z.enum(['csv', 'gpx']).default('csv'),
    /** `full`: every fix of the range; `simplified`: the points the track answer keeps. */
    resolution: z.enum(['full', 'simplified']).default('full'),
    maxPoints: z.coerce.number().int().min(100).max(LOCUS_MAX_POINTS).default(LOCUS_DEFAULT_POINTS),
  })
  .superRefine(checkRange);

/** Where the track screen opens (GET /device/locusrange): see historyRangeSchema, for fixes. */
export const locusRangeSchema = z.object({
  from: z.string(),
  to: z.string(),
  basis: z.enum(['recent', 'past', 'none']),
});
export type LocusRange = z.infer<typeof locusRangeSchema>;
