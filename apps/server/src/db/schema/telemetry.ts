import {
  bigserial,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { BATTERY_STATES, COMMAND_STATUSES, DEVICE_LOG_KINDS } from '@iot/contract';
import { devices } from './projects.js';
import { inList } from './util.js';
import { check } from 'drizzle-orm/pg-core';

/**
 * Telemetry, one row per sample: `vals` holds the accepted values keyed by semaphore id. A sample
 * is identified by its device and time: (device_id, ts) is unique (migration 0035), so a message
 * sent again (QoS 1 redelivery) is stored once, and two messages of the same time are merged into
 * one row (ingest.repo.ts writeBatch). The table is PARTITIONED BY RANGE (ts), one partition per
 * UTC day (migration 0008 declares it; `telemetry/partitions.ts` creates days ahead and drops whole
 * days past the retention); the unique index includes ts, the partition key, as PostgreSQL
 * requires, and every partition gets its own. A device's history over a time range is an index
 * range scan on (device_id, ts) in each day. No primary key: nothing refers to a row.
 */
export const telemetry = pgTable(
  'telemetry',
  {
    deviceId: integer('device_id').notNull(),
    /** Device time of the message (the arrival time when the device sent none). */
    ts: timestamp('ts', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    vals: jsonb('vals').notNull(),
  },
  (t) => [uniqueIndex('telemetry_device_ts_idx').on(t.deviceId, t.ts)],
);

/**
 * The newest value of each parameter of each device, for instant reads: ONE row per device.
 * `vals` maps a semaphore id to `[value, epoch ms of the message that carried it]`; a message
 * merges into it with `||` (one upsert row per message, not one per value: bench/README.md).
 * `ts` is the newest of those times (a message older than it is merged key by key instead).
 */
export const deviceLatest = pgTable('device_latest', {
  deviceId: integer('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  vals: jsonb('vals').notNull().default({}),
  ts: timestamp('ts', { withTimezone: true }).notNull(),
});

/**
 * A battery's headline figures, ONE row per device that reported any of them, kept by the batch
 * transaction next to `device_latest` (one bulk upsert per batch, from the merged latest values):
 * the home dashboard's battery style counts, buckets and ranks them at fleet scale with plain
 * columns and indexes instead of reading every device's JSON (decision 0025). Null: not reported
 * (or not a number). `state` follows the current's sign (charging > 0), `idle` below a threshold.
 */
export const deviceBattery = pgTable(
  'device_battery',
  {
    deviceId: integer('device_id')
      .primaryKey()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** SOC, % (02109001). */
    soc: doublePrecision('soc'),
    /** Pack current, A (01112001). */
    current: doublePrecision('current'),
    state: varchar('state', { length: 12 }),
    /** Highest cell temperature, °C (01119NNN). */
    maxCellTemp: doublePrecision('max_cell_temp'),
    /** Highest minus lowest cell voltage, mV (01117NNN, two cells or more). */
    cellDeltaMv: doublePrecision('cell_delta_mv'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // The top-5 lists walk these in their order; the device id breaks ties (temperatures in tenths of a degree tie by the hundred).
    index('device_battery_soc_idx').on(t.soc, t.deviceId),
    index('device_battery_temp_idx').on(t.maxCellTemp.desc(), t.deviceId),
    index('device_battery_delta_idx').on(t.cellDeltaMv.desc(), t.deviceId),
    check('device_battery_state_chk', inList('state', BATTERY_STATES)),
  ],
);

/** GPS fixes (devices of types that record tracks, §3 GPS data): one per device and time (0035). */
export const devicePositions = pgTable(
  'device_positions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    ts: timestamp('ts', { withTimezone: true }).notNull(),
    lng: doublePrecision('lng').notNull(),
    lat: doublePrecision('lat').notNull(),
    speed: doublePrecision('speed'),
    direction: doublePrecision('direction'),
    pdop: doublePrecision('pdop'),
    satellites: smallint('satellites'),
  },
  (t) => [uniqueIndex('device_positions_device_ts_idx').on(t.deviceId, t.ts)],
);

/**
 * The device log (/sys/devlogs): connections, state changes, rejected messages with their reason,
 * device alarms, commands and acknowledgements. Messages from unknown serial numbers are kept by
 * SN with no device.
 */
export const deviceLogs = pgTable(
  'device_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'cascade' }),
    sn: varchar('sn', { length: 64 }).notNull(),
    kind: varchar('kind', { length: 16 }).notNull(),
    reason: varchar('reason', { length: 32 }),
    detail: jsonb('detail').notNull().default({}),
    /** Scoping like the device (its owner path), '' for unknown devices (administrators only). */
    ownerPath: text('owner_path').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // (created_at, id): a server start writes one `offline` row per device with the same time.
    index('device_logs_created_idx').on(t.createdAt, t.id),
    index('device_logs_sn_idx').on(t.sn, t.createdAt),
    index('device_logs_device_idx').on(t.deviceId, t.createdAt),
    index('device_logs_kind_idx').on(t.kind, t.createdAt),
    index('device_logs_owner_idx').on(t.ownerPath.op('text_pattern_ops'), t.createdAt),
    check('device_logs_kind_chk', inList('kind', DEVICE_LOG_KINDS)),
  ],
);

/**
 * Commands to devices (docs/PROTOCOL.md "Commands"): set parameters now; fences, upgrades and
 * whitelists later, all in one envelope. A command is pending until delivered (published on
 * `dev/<sn>/cmd`, or handed to an HTTP device in the answer to its next uplink), then sent, then
 * ended by the device's acknowledgement (succeeded / failed), or by its expiry (timeout).
 */
export const deviceCommands = pgTable(
  'device_commands',
  {
    id: varchar('id', { length: 64 }).primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 32 }).notNull(),
    payload: jsonb('payload').notNull(),
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    /** The device's message on failure, or the last progress note. */
    message: text('message').notNull().default(''),
    progress: smallint('progress'),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('device_commands_device_idx').on(t.deviceId, t.createdAt),
    index('device_commands_open_idx').on(t.status, t.expiresAt),
    check('device_commands_status_chk', inList('status', COMMAND_STATUSES)),
  ],
);
