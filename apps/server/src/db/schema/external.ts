import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { EXTERNAL_EVENTS, EXTERNAL_STATES } from '@iot/contract/plain';
import { firmwareVersions } from './upgrades.js';
import { inList } from './util.js';

/**
 * Devices outside the registry that check in over HTTP to ask for firmware (§7 Hardware,
 * /external/*; docs/PROTOCOL.md "External devices"), identified by IMEI or serial. One open
 * assignment at most per device, kept on its row: the version (its name and software version
 * copied, so a deleted version still reads), its state, progress and reason, and the deadline
 * by which news must come or it fails "timed out". Owned by its creator's line.
 */
export const externalDevices = pgTable(
  'external_devices',
  {
    id: serial('id').primaryKey(),
    identifier: varchar('identifier', { length: 64 }).notNull(),
    name: varchar('name', { length: 64 }).notNull().default(''),
    model: varchar('model', { length: 64 }).notNull().default(''),
    /** The version reported at the last check-in. */
    version: varchar('version', { length: 64 }).notNull().default(''),
    lastCheckinAt: timestamp('last_checkin_at', { withTimezone: true }),
    lastAddress: varchar('last_address', { length: 64 }).notNull().default(''),
    /** The list's free-text search: identifier and name in lower case, kept by PostgreSQL. */
    search: text('search').generatedAlwaysAs(sql`lower(identifier || ' ' || name)`),
    /** SHA-256 of the credential (shown once when added). */
    credentialHash: varchar('credential_hash', { length: 64 }).notNull(),
    versionId: integer('version_id').references(() => firmwareVersions.id, { onDelete: 'set null' }),
    versionName: varchar('version_name', { length: 64 }).notNull().default(''),
    targetVersion: varchar('target_version', { length: 64 }).notNull().default(''),
    state: varchar('state', { length: 12 }).notNull().default('none'),
    progress: smallint('progress').notNull().default(0),
    reason: text('reason').notNull().default(''),
    /** The device said ok: its next check-in must report the assigned version, or it failed. */
    awaitingVersion: boolean('awaiting_version').notNull().default(false),
    /** Seconds the assignment may go without news; each progress or result moves the deadline on. */
    timeoutSec: integer('timeout_sec').notNull().default(3600),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    deadline: timestamp('deadline', { withTimezone: true }),
    ownerPath: text('owner_path').notNull(),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('external_devices_identifier_idx').on(t.identifier),
    index('external_devices_owner_idx').on(t.ownerPath.op('text_pattern_ops')),
    index('external_devices_created_idx').on(t.createdAt, t.id),
    index('external_devices_updated_idx').on(t.updatedAt, t.id),
    // Never checked in is the stalest (the keyset's `lastWhenDesc`): one index serves both directions.
    index('external_devices_checkin_idx').on(t.lastCheckinAt.desc().nullsLast(), t.id.desc().nullsLast()),
    index('external_devices_version_idx').on(t.version, t.id),
    index('external_devices_model_idx').on(t.model),
    index('external_devices_state_idx').on(t.state),
    index('external_devices_assigned_idx').on(t.versionId),
    // `q` is LIKE '%q%' on `search`, through pg_trgm as the device search is.
    index('external_devices_search_trgm_idx').using('gin', t.search.op('gin_trgm_ops')),
    // The timeout sweep: open assignments by deadline.
    index('external_devices_open_idx')
      .on(t.deadline)
      .where(sql`state in ('assigned', 'downloading', 'installing')`),
    check('external_devices_state_chk', inList('state', EXTERNAL_STATES)),
  ],
);

/**
 * Every check-in, assignment, cancel, download, progress report and result of an external device
 * (§7 /hardware/getlogslist, /external/loglist). `owner_path` is its device's, copied so a scoped
 * list of all logs reads the logs' own index.
 */
export const externalLogs = pgTable(
  'external_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => externalDevices.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    event: varchar('event', { length: 12 }).notNull(),
    version: varchar('version', { length: 64 }).notNull().default(''),
    versionId: integer('version_id'),
    progress: smallint('progress'),
    message: text('message').notNull().default(''),
    address: varchar('address', { length: 64 }).notNull().default(''),
    ownerPath: text('owner_path').notNull(),
  },
  (t) => [
    index('external_logs_device_idx').on(t.deviceId, t.at, t.id),
    index('external_logs_at_idx').on(t.at, t.id),
    index('external_logs_owner_idx').on(t.ownerPath.op('text_pattern_ops'), t.at),
    index('external_logs_event_idx').on(t.event, t.at),
    check('external_logs_event_chk', inList('event', EXTERNAL_EVENTS)),
  ],
);
