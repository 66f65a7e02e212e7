import { z } from 'zod';
import { idSchema, INT4_MAX, isoDateTimeSchema, pageQuerySchema } from './envelope.js';
import { paramDefinitionSchema } from './devices.js';
import { COMMAND_STATUSES, paramValueSchema } from './protocol.js';

/**
 * The device details page (§2 /project/info, §7 /device/*): parameters grouped as the device
 * type defines them, set parameters through the command channel, history (table and
 * downsampled charts) and energy consumption.
 */

/** A parameter definition as the details page shows it (the type's parameter, without its id). */
export const detailParamSchema = paramDefinitionSchema.omit({ groupName: true, sort: true });
export type DetailParam = z.infer<typeof detailParamSchema>;

/** One parameter group of the device's type: its name ('' for ungrouped) and its parameters in order. */
export const paramGroupSchema = z.object({ group: z.string(), params: z.array(detailParamSchema) });
export type ParamGroup = z.infer<typeof paramGroupSchema>;

/** A parameter with its newest value (null: never received) and the device time of that value. */
export const displayParamSchema = detailParamSchema.extend({
  value: paramValueSchema.nullable(),
  ts: z.string().nullable(),
});
export type DisplayParam = z.infer<typeof displayParamSchema>;
export const displayGroupSchema = z.object({ group: z.string(), params: z.array(displayParamSchema) });
export type DisplayGroup = z.infer<typeof displayGroupSchema>;

// ---------------------------------------------------------------- set parameters

/** Values to set, keyed by semaphore id (each checked against the type's definition). */
export const setParamValuesSchema = z.object({
  id: z.number().int().positive().max(INT4_MAX),
  values: z
    .record(z.string().min(1).max(32), paramValueSchema)
    .refine((v) => Object.keys(v).length > 0, 'choose at least one parameter to set')
    .refine((v) => Object.keys(v).length <= 100, 'at most 100 parameters at once'),
});
export type SetParamValues = z.infer<typeof setParamValuesSchema>;

/** How long the console waits for the device to acknowledge a set-parameters command. */
export const SET_PARAMS_TTL_MS = 30_000;
/** The command kind that sets writable parameters (docs/PROTOCOL.md). */
export const SET_PARAMS_KIND = 'setParams';

export const commandDtoSchema = z.object({
  id: z.string(),
  deviceId: z.number().int(),
  kind: z.string(),
  payload: z.unknown(),
  status: z.enum(COMMAND_STATUSES),
  /** The device's reason when it failed, or its last progress note. */
  message: z.string(),
  progress: z.number().nullable(),
  createdBy: z.number().int().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  expiresAt: z.string(),
  endedAt: z.string().nullable(),
});
export type CommandDto = z.infer<typeof commandDtoSchema>;
export const commandListQuerySchema = pageQuerySchema.extend({ id: idSchema });

// ---------------------------------------------------------------- history

/** Semaphore ids as `a,b,c` in a query string. */
const semaphoreIdsSchema = z
  .string()
  .trim()
  .min(1, 'choose at least one parameter')
  .max(2000)
  .transform((s) => [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))])
  .refine((a) => a.length >= 1 && a.length <= 50, 'choose 1 to 50 parameters')
  .refine((a) => a.every((x) => x.length <= 32), 'a semaphore id has at most 32 characters');

/** At most this long a range may be asked for (the retention is shorter anyway). */
export const HISTORY_MAX_RANGE_DAYS = 400;

const rangeSchema = z.object({
  id: idSchema,
  from: isoDateTimeSchema,
  to: isoDateTimeSchema,
  semaphoreIds: semaphoreIdsSchema,
});
const checkRange = <T extends { from: string; to: string }>(q: T, ctx: z.RefinementCtx) => {
  const from = Date.parse(q.from);
  const to = Date.parse(q.to);
  if (!(from < to)) ctx.addIssue({ code: 'custom', path: ['to'], message: 'the end must be after the start' });
  else if (to - from > HISTORY_MAX_RANGE_DAYS * 86_400_000) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: `at most ${HISTORY_MAX_RANGE_DAYS} days` });
  }
};

export const historyQuerySchema = rangeSchema
  .extend({ ...pageQuerySchema.shape, order: z.enum(['asc', 'desc']).default('desc') })
  .superRefine(checkRange);
export const historyRowSchema = z.object({
  ts: z.string(),
  values: z.record(z.string(), paramValueSchema),
});
export type HistoryRow = z.infer<typeof historyRowSchema>;
/**
 * The table counts matching messages up to this many: a year holds millions, and counting them
 * all would cost seconds for every page. Past it `total` is this number and `exact` false.
 */
export const HISTORY_COUNT_CAP = 10_000;
export const historyPageSchema = z.object({
  total: z.number().int(),
  /** False when there are more than HISTORY_COUNT_CAP matching messages (`total` is the cap). */
  exact: z.boolean(),
  items: z.array(historyRowSchema),
});

export const HISTORY_EXPORT_MAX_ROWS = 200_000;
export const historyExportQuerySchema = rangeSchema
  .extend({
    format: z.enum(['xlsx', 'csv']).default('xlsx'),
    lang: z.enum(['zh', 'en', 'es', 'ja']).default('en'),
  })
  .superRefine(checkRange);

/** The history tab's first range spans this long: a day. */
export const HISTORY_DEFAULT_SPAN_MS = 86_400_000;
/**
 * Where the history tab opens (GET /device/historyrange): the last day up to now when the device
 * sent within it (`recent`), else the day up to its newest message (`past`), else the last day
 * (`none`: it never sent one); starting at the range's first message when that is newer than the
 * range's start, so a device with minutes of data shows those minutes across the chart.
 */
export const historyRangeSchema = z.object({
  from: z.string(),
  to: z.string(),
  basis: z.enum(['recent', 'past', 'none']),
});
export type HistoryRange = z.infer<typeof historyRangeSchema>;

/** Points per series a chart answer never exceeds (min/max buckets keep the peaks). */
export const CHART_MAX_POINTS = 2000;
export const chartQuerySchema = rangeSchema
  .extend({ points: z.coerce.number().int().min(10).max(CHART_MAX_POINTS).default(CHART_MAX_POINTS) })
  .superRefine(checkRange);
export const chartSeriesSchema = z.object({
  semaphoreId: z.string(),
  /** [epoch ms, value] in time order; booleans as 0/1. */
  points: z.array(z.tuple([z.number(), z.number()])),
});
export const chartDataSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Width of one bucket in ms: each bucket gives its minimum and maximum (or its one point). */
  bucketMs: z.number(),
  series: z.array(chartSeriesSchema),
});
export type ChartData = z.infer<typeof chartDataSchema>;

// ---------------------------------------------------------------- energy

export const ENERGY_GRANULARITIES = ['day', 'week', 'month'] as const;
export type EnergyGranularity = (typeof ENERGY_GRANULARITIES)[number];
/**
 * The longest range energy is computed over, per granularity: each bucket is one index probe, and
 * a day bucket of a device whose messages lack the counters reads the whole day; a quarter of
 * days, or 400 days of weeks or months (the console asks 30 days, 26 weeks, 12 months).
 */
export const ENERGY_MAX_RANGE_DAYS: Record<EnergyGranularity, number> = { day: 92, week: HISTORY_MAX_RANGE_DAYS, month: HISTORY_MAX_RANGE_DAYS };
export const energyQuerySchema = z
  .object({
    id: idSchema,
    from: isoDateTimeSchema,
    to: isoDateTimeSchema,
    granularity: z.enum(ENERGY_GRANULARITIES).default('day'),
  })
  .superRefine(checkRange);
export const energyBucketSchema = z.object({
  /** Start of the day / ISO week / month (UTC). */
  start: z.string(),
  chargedKwh: z.number(),
  dischargedKwh: z.number(),
});
export const energyDataSchema = z.object({
  buckets: z.array(energyBucketSchema),
  chargedKwh: z.number(),
  dischargedKwh: z.number(),
});
export type EnergyData = z.infer<typeof energyDataSchema>;


