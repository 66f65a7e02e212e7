import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';
import { FENCE_ACTIONS, FENCE_OPS, FENCE_STATES } from '@iot/contract';
import { devices } from './projects.js';
import { inList } from './util.js';

/**
 * Geo-fences issued to devices (modules/fence): a circle, what the device does on leaving it, and
 * the fence's state (§4: set, issued, failed, offline, removed, relocked). `pending_command` is
 * the fence command still waiting for the device's answer and `pending_op` what it asks; the
 * command's end settles the fence (fence.repo.ts `settle`) and clears both. Rows are never
 * deleted but with their device: removed fences keep their history.
 */
export const deviceFences = pgTable(
  'device_fences',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    lng: doublePrecision('lng').notNull(),
    lat: doublePrecision('lat').notNull(),
    /** Metres. */
    radius: integer('radius').notNull(),
    action: varchar('action', { length: 8 }).notNull(),
    alarmOnEnter: boolean('alarm_on_enter').notNull().default(false),
    state: varchar('state', { length: 12 }).notNull(),
    pendingOp: varchar('pending_op', { length: 8 }),
    pendingCommand: varchar('pending_command', { length: 64 }),
    createdBy: integer('created_by'),
    createdByName: varchar('created_by_name', { length: 64 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('device_fences_device_idx').on(t.deviceId, t.id),
    // The crossing check loads a batch's devices' kept fences in one statement.
    index('device_fences_kept_idx').on(t.deviceId).where(sql`state in ('issued', 'relocked')`),
    index('device_fences_pending_idx').on(t.pendingCommand).where(sql`pending_command is not null`),
    check('device_fences_state_chk', inList('state', FENCE_STATES)),
    check('device_fences_action_chk', inList('action', FENCE_ACTIONS)),
    check('device_fences_op_chk', inList('pending_op', FENCE_OPS)),
  ],
);

/** Every transition of a fence: time, state reached, what was asked, by whom, the device's reason. */
export const deviceFenceEvents = pgTable(
  'device_fence_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    fenceId: integer('fence_id')
      .notNull()
      .references(() => deviceFences.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    state: varchar('state', { length: 12 }).notNull(),
    op: varchar('op', { length: 8 }).notNull(),
    userId: integer('user_id'),
    userName: varchar('user_name', { length: 64 }),
    reason: text('reason').notNull().default(''),
    timedOut: boolean('timed_out').notNull().default(false),
    commandId: varchar('command_id', { length: 64 }),
  },
  (t) => [
    index('device_fence_events_fence_idx').on(t.fenceId, t.id),
    check('device_fence_events_state_chk', inList('state', FENCE_STATES)),
    check('device_fence_events_op_chk', inList('op', FENCE_OPS)),
  ],
);

/**
 * Where a device is with respect to each fence it keeps (the crossing check,
 * telemetry/fence.check.ts): inside or out since the fix that last changed it (a crossing, or the
 * first fix after the fence was issued), that fix's device time and distance from the centre. One
 * row per fence, written only when it changes.
 */
export const deviceFenceStates = pgTable('device_fence_states', {
  fenceId: integer('fence_id')
    .primaryKey()
    .references(() => deviceFences.id, { onDelete: 'cascade' }),
  inside: boolean('inside').notNull(),
  ts: timestamp('ts', { withTimezone: true }).notNull(),
  distance: doublePrecision('distance').notNull(),
});
