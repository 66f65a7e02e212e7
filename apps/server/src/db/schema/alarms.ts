import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { ALARM_NOTICE_CHANNELS, ALARM_NOTICE_STATES, ALARM_SOURCES, ALARM_STATES } from '@iot/contract';
import { devices } from './projects.js';
import { users } from './users.js';
import { inList } from './util.js';

/**
 * Alarms (§3): one row per alarm, from a device type's rule or raised by the device. `rule_key`
 * names what it is about — `r<rule id>` for a rule, `d<semaphore id>` for a device alarm — and the
 * partial unique index `alarms_one_active_idx` allows exactly ONE active (not ended) alarm per
 * device and key: duplicate or concurrent messages, a replayed QoS 1 message or a second server
 * instance cannot open a second one (the engine inserts with ON CONFLICT DO NOTHING).
 * The rule's level and messages are copied: the alarm keeps what it was when it happened.
 */
export const alarms = pgTable(
  'alarms',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    ruleKey: varchar('rule_key', { length: 40 }).notNull(),
    ruleId: integer('rule_id'),
    source: varchar('source', { length: 8 }).notNull(),
    semaphoreId: varchar('semaphore_id', { length: 32 }).notNull(),
    level: smallint('level').notNull(),
    message: varchar('message', { length: 128 }).notNull().default(''),
    messageEn: varchar('message_en', { length: 128 }).notNull().default(''),
    messageEs: varchar('message_es', { length: 128 }).notNull().default(''),
    messageJa: varchar('message_ja', { length: 128 }).notNull().default(''),
    /** The value that started it, as text. */
    value: varchar('value', { length: 128 }).notNull().default(''),
    /** Device time the alarm started (warning date). */
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    /** When the console recorded it (reporting time). */
    reportedAt: timestamp('reported_at', { withTimezone: true }).notNull().defaultNow(),
    /** Device time it ended; null while active. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    state: varchar('state', { length: 12 }).notNull().default('untreated'),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    processedBy: integer('processed_by').references(() => users.id, { onDelete: 'set null' }),
    processedByName: varchar('processed_by_name', { length: 64 }),
    note: varchar('note', { length: 256 }).notNull().default(''),
    /**
     * The device's owner path and project, copied by PostgreSQL (migration 0030: on insert, and
     * when a device's owner or project changes) so that a scoped alarm list is answered from the
     * alarm rows and their index, without looking up the device of every alarm it walks.
     */
    ownerPath: text('owner_path').notNull().default(''),
    projectId: integer('project_id'),
    /**
     * The device's type, copied the same way (migration 0072): the alarm list's type filter is a
     * condition on the alarm row and its index, not a join to the device of every alarm counted.
     */
    typeId: integer('type_id'),
    /**
     * A phone call-out is due for this alarm (decision 0024): when it started, its device had an
     * alarm phone number and no open alarm of a higher level (the level was at least the device's
     * `warning_level`, 0 with none open). Set by the alarm engine's insert; nothing is dialled yet.
     */
    callout: boolean('callout').notNull().default(false),
  },
  (t) => [
    uniqueIndex('alarms_one_active_idx').on(t.deviceId, t.ruleKey).where(sql`ended_at is null`),
    index('alarms_device_started_idx').on(t.deviceId, t.startedAt),
    // The scope's columns last (after the unique id, so the order is unchanged): a scoped list's
    // ids are found by walking this index alone, checking each entry's scope (an index-only scan).
    index('alarms_started_idx').on(t.startedAt, t.id, t.ownerPath, t.projectId),
    // A scope's count: owned in the subtree, or in a project it sees.
    index('alarms_owner_path_idx').on(t.ownerPath.op('text_pattern_ops')),
    index('alarms_project_idx').on(t.projectId, t.startedAt),
    index('alarms_type_idx').on(t.typeId, t.startedAt),
    index('alarms_untreated_idx').on(t.startedAt).where(sql`state = 'untreated'`),
    index('alarms_level_idx').on(t.level, t.startedAt),
    // The list's other sorts, each (column, id) read either way (lib/query/keyset.ts).
    index('alarms_level_id_idx').on(t.level, t.id),
    index('alarms_ended_idx').on(t.endedAt, t.id),
    index('alarms_processed_idx').on(t.processedAt, t.id),
    // The home dashboard (modules/home), read index-only: per day, level, device and project over
    // a period (the totals per level come from alarm_counts, below).
    index('alarms_home_started_idx').on(t.startedAt, t.level, t.deviceId, t.ownerPath, t.projectId),
    // The voice dashboard: call-outs due, newest first, and their count in a period (index-only).
    index('alarms_callout_idx').on(t.startedAt, t.id, t.ownerPath, t.projectId).where(sql`callout`),
    check('alarms_level_chk', sql`level between 1 and 4`),
    check('alarms_state_chk', inList('state', ALARM_STATES)),
    check('alarms_source_chk', inList('source', ALARM_SOURCES)),
  ],
);

/**
 * Alarms counted per owner path, project (0: none), level and state, kept by statement triggers on
 * `alarms` (migration 0049, decision 0024): the dashboard's totals per level read a few thousand
 * rows with the alarm rows' own visibility instead of every alarm of a scope. Each statement
 * applies its rows' deltas in one upsert, in key order, so concurrent batches never deadlock on it.
 */
export const alarmCounts = pgTable(
  'alarm_counts',
  {
    ownerPath: text('owner_path').notNull(),
    projectId: integer('project_id').notNull(),
    level: smallint('level').notNull(),
    state: varchar('state', { length: 12 }).notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerPath, t.projectId, t.level, t.state] })],
);

/**
 * Alarm notices by phone (issue #39, decision 0037): one row per SMS or voice call of an alarm to
 * one number, both the outbox and the alarm's history. `pending` rows are sent by the notice job
 * when `next_at` comes (claimed with FOR UPDATE SKIP LOCKED, which also moves `next_at` on as a
 * lease, so a second instance or a crash mid-send never sends twice or loses one); a failure
 * waits with back-off, `failed` after the last attempt. `limited` rows were never sent (the rate
 * per device or per number was spent); the limits count the rows of the last window.
 */
export const alarmNotices = pgTable(
  'alarm_notices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    alarmId: bigint('alarm_id', { mode: 'number' })
      .notNull()
      .references(() => alarms.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').notNull(),
    /** `sms` or `call`. */
    channel: varchar('channel', { length: 8 }).notNull(),
    /** The number as dialled: digits and a leading +. */
    phone: varchar('phone', { length: 32 }).notNull(),
    /** Whose number: the device's alarm phone, or a user's contact number (`user_id`). */
    recipient: varchar('recipient', { length: 8 }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    language: varchar('language', { length: 8 }).notNull().default('zh'),
    state: varchar('state', { length: 8 }).notNull().default('pending'),
    attempts: smallint('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    /** The provider that answered last, its message id, and every attempt `{at, ok, code, message}`. */
    provider: varchar('provider', { length: 16 }).notNull().default(''),
    providerRef: varchar('provider_ref', { length: 128 }).notNull().default(''),
    tries: jsonb('tries').notNull().default(sql`'[]'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('alarm_notices_alarm_idx').on(t.alarmId, t.id),
    // The job's queue: only the rows still to send.
    index('alarm_notices_due_idx').on(t.nextAt).where(sql`state = 'pending'`),
    // The rate limits: a device's and a number's notices of the last window.
    index('alarm_notices_device_idx').on(t.deviceId, t.createdAt),
    index('alarm_notices_phone_idx').on(t.phone, t.createdAt),
    // The retention (ALARM_NOTICE_RETENTION_DAYS): settled rows, oldest first; never a queued one.
    index('alarm_notices_settled_idx').on(t.createdAt, t.id).where(sql`state <> 'pending'`),
    check('alarm_notices_channel_chk', inList('channel', ALARM_NOTICE_CHANNELS)),
    check('alarm_notices_state_chk', inList('state', ALARM_NOTICE_STATES)),
    check('alarm_notices_recipient_chk', sql`recipient in ('device', 'user')`),
  ],
);

/**
 * A rule's hold in progress per device (decision 0038), kept only when several instances may
 * evaluate one device's values (REDIS_URL on PostgreSQL; the broker's shared subscription may hand
 * its messages to any instance): the device time (ms) its breach began, or its recovery while
 * the alarm is active. Read and written by the alarm stage in the batch's transaction, under the
 * device's row lock; a row exists only while a hold is running.
 */
export const alarmHolds = pgTable(
  'alarm_holds',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    ruleKey: varchar('rule_key', { length: 64 }).notNull(),
    semaphoreId: varchar('semaphore_id', { length: 64 }).notNull(),
    breachSince: bigint('breach_since', { mode: 'number' }),
    recoverSince: bigint('recover_since', { mode: 'number' }),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.ruleKey] })],
);

/**
 * The dashboard's 7/30-day trend (alarms started per local day and level) from counters kept by
 * the same statement triggers as `alarm_counts` (migration 0068, decision 0041), in 15-minute UTC
 * buckets (`at`: every zone's midnight falls on one), so a caller's local days are sums of whole
 * buckets. A row per ancestor of the alarm's owner path (`/`, `/1/`, `/1/5/`, …): a subtree's
 * alarms are its own path's rows, whatever the number of users and projects under it, and `/` is
 * the whole fleet's.
 */
export const alarmTrendLines = pgTable(
  'alarm_trend_lines',
  {
    path: text('path').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    level: smallint('level').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.path, t.at, t.level] })],
);

/**
 * The same per project and owner path: the alarms a caller sees through a project shared with
 * its subtree but owned outside it (decision 0041).
 */
export const alarmTrendProjects = pgTable(
  'alarm_trend_projects',
  {
    projectId: integer('project_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    ownerPath: text('owner_path').notNull(),
    level: smallint('level').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.at, t.ownerPath, t.level] })],
);

/**
 * Alarms started per project and UTC day (migration 0068, decision 0041): the top 5 projects of
 * a period sum whole days and read only the partial first day's alarms (at most 12 hours).
 */
export const alarmProjectDays = pgTable(
  'alarm_project_days',
  {
    projectId: integer('project_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day] })],
);
