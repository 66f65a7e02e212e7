import { sql, type SQL } from 'drizzle-orm';
import { boolean, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { devices } from './projects.js';

/**
 * Ten-minute min/max rollups of telemetry for charts over long ranges (the device details page):
 * one row per device and ten-minute bucket, `mm` = { semaphoreId: [min, minMs, max, maxMs] } for
 * every numeric value (booleans as 0/1) the device sent in it. Written per whole UTC day by
 * telemetry/history.rollup.ts; a chart over a week or more reads these instead of up
 * to millions of messages, and still keeps every peak and trough with its time.
 */
export const telemetryRollup = pgTable(
  'telemetry_rollup',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    mm: jsonb('mm').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.bucket] }), index('telemetry_rollup_bucket_idx').on(t.bucket)],
);

/** The same per hour, derived from the ten-minute rows: a chart over months or a year reads these. */
export const telemetryRollupHour = pgTable(
  'telemetry_rollup_hour',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    mm: jsonb('mm').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.bucket] }), index('telemetry_rollup_hour_bucket_idx').on(t.bucket)],
);

/**
 * Energy charged and discharged per hour, summed per owner line and project (the home dashboard's
 * battery style: a fleet's energy per local day without reading a row per device). Written with
 * the rollups of a UTC day from `telemetry_rollup_hour` (rollup.repo.ts), the device's line and
 * project as they stand then; a day rolled up again replaces its rows.
 */
export const batteryEnergyHour = pgTable(
  'battery_energy_hour',
  {
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    ownerPath: text('owner_path').notNull(),
    projectId: integer('project_id'),
    chargedKwh: doublePrecision('charged_kwh').notNull(),
    dischargedKwh: doublePrecision('discharged_kwh').notNull(),
    devices: integer('devices').notNull(),
  },
  (t) => [
    index('battery_energy_hour_bucket_idx').on(t.bucket),
    index('battery_energy_hour_owner_idx').on(t.ownerPath.op('text_pattern_ops'), t.bucket),
    index('battery_energy_hour_project_idx').on(t.projectId, t.bucket),
  ],
);

/** The days rolled up; `final` once the day is older than the window late messages may arrive in. */
export const telemetryRollupDays = pgTable('telemetry_rollup_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  final: boolean('final').notNull().default(false),
  rolledAt: timestamp('rolled_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A value as a number for charts: numbers, booleans as 0/1, numeric text (enum values); else null.
 * jsonb casts straight to float8 / bool (no detour through text): this runs once per message and
 * series. Here because the rollups (telemetry/rollup.repo.ts) and the charts read from messages
 * (modules/devicedetail) must agree on it.
 */
export const numericValue = (v: SQL) => sql`case jsonb_typeof(${v})
  when 'number' then (${v})::float8
  when 'boolean' then (${v})::bool::int::float8
  when 'string' then case when (${v} #>> '{}') ~ '^-?[0-9]+(\\.[0-9]+)?$' then (${v} #>> '{}')::float8 end
end`;
