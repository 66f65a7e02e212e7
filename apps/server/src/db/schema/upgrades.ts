import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { CAMPAIGN_STATES, UPGRADE_TARGET_STATES } from '@iot/contract/plain';
import { devices } from './projects.js';
import { inList } from './util.js';

/**
 * Firmware versions (§3 upgrade version: name, manufacturer, module, software version, info, URL).
 * The image is either uploaded (stored under DATA_DIR/firmware as `file_key`, served to devices
 * with Range by the firmware download route) or an external `url`; `size` and `sha256` travel in
 * the upgrade command either way. `type_ids` and `models` say what it applies to (empty: any).
 * Seen by the creator's subtree and by the users below the creator (published downwards).
 */
export const firmwareVersions = pgTable(
  'firmware_versions',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 64 }).notNull(),
    manufacturer: varchar('manufacturer', { length: 64 }).notNull().default(''),
    module: varchar('module', { length: 64 }).notNull().default(''),
    softwareVersion: varchar('software_version', { length: 64 }).notNull(),
    info: text('info').notNull().default(''),
    /** External image; '' when uploaded. */
    url: text('url').notNull().default(''),
    /** Uploaded image: its file name under DATA_DIR/firmware, and the name it was uploaded with. */
    fileKey: text('file_key'),
    fileName: varchar('file_name', { length: 255 }),
    size: bigint('size', { mode: 'number' }),
    sha256: varchar('sha256', { length: 64 }),
    typeIds: integer('type_ids').array().notNull().default(sql`'{}'`),
    models: text('models').array().notNull().default(sql`'{}'`),
    ownerPath: text('owner_path').notNull(),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('firmware_versions_owner_idx').on(t.ownerPath.op('text_pattern_ops')),
    index('firmware_versions_created_idx').on(t.createdAt, t.id),
  ],
);

/**
 * A roll-out of one version to devices (§7 /upgrade/setdeviceupgrade): waves of `concurrency`
 * commands, each stage bounded by `stage_timeout_sec`, `retries` more attempts after a timeout,
 * and a `deadline` after which what has not ended times out.
 */
export const upgradeCampaigns = pgTable(
  'upgrade_campaigns',
  {
    id: serial('id').primaryKey(),
    /** Null once the version is deleted (never while the campaign runs): the copies below stay. */
    versionId: integer('version_id').references(() => firmwareVersions.id, { onDelete: 'set null' }),
    versionName: varchar('version_name', { length: 64 }).notNull(),
    softwareVersion: varchar('software_version', { length: 64 }).notNull(),
    state: varchar('state', { length: 12 }).notNull().default('running'),
    concurrency: integer('concurrency').notNull(),
    stageTimeoutSec: integer('stage_timeout_sec').notNull(),
    retries: smallint('retries').notNull(),
    deadline: timestamp('deadline', { withTimezone: true }).notNull(),
    /** The command's image URL (the console's own download route, or the version's external URL). */
    url: text('url').notNull(),
    ownerPath: text('owner_path').notNull(),
    createdBy: integer('created_by'),
    createdByName: varchar('created_by_name', { length: 64 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('upgrade_campaigns_owner_idx').on(t.ownerPath.op('text_pattern_ops')),
    index('upgrade_campaigns_created_idx').on(t.createdAt, t.id),
    index('upgrade_campaigns_running_idx').on(t.id).where(sql`state = 'running'`),
    index('upgrade_campaigns_version_idx').on(t.versionId),
    check('upgrade_campaigns_state_chk', inList('state', CAMPAIGN_STATES)),
  ],
);

/**
 * One device of a campaign and where it stands. `stage_at` is when its current state began
 * (the stage timeout counts from it); `command_id` the firmwareUpgrade command of the current
 * attempt (answers to older attempts are ignored). One unfinished upgrade per device at a time.
 */
export const upgradeTargets = pgTable(
  'upgrade_targets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => upgradeCampaigns.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    state: varchar('state', { length: 12 }).notNull().default('queued'),
    progress: smallint('progress').notNull().default(0),
    attempt: smallint('attempt').notNull().default(0),
    commandId: varchar('command_id', { length: 64 }),
    reason: text('reason'),
    /** The version the device reported before the upgrade, and after it. */
    fromVersion: varchar('from_version', { length: 64 }),
    toVersion: varchar('to_version', { length: 64 }),
    stageAt: timestamp('stage_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('upgrade_targets_campaign_device_idx').on(t.campaignId, t.deviceId),
    index('upgrade_targets_campaign_state_idx').on(t.campaignId, t.state),
    // One unfinished upgrade per device, whatever the campaign.
    uniqueIndex('upgrade_targets_device_open_idx')
      .on(t.deviceId)
      .where(sql`state in ('queued', 'sent', 'downloading', 'installing', 'verifying')`),
    index('upgrade_targets_command_idx').on(t.commandId).where(sql`command_id is not null`),
    // The engine's rounds: what is in progress, by when its stage began.
    index('upgrade_targets_open_idx')
      .on(t.state, t.stageAt)
      .where(sql`state in ('queued', 'sent', 'downloading', 'installing', 'verifying')`),
    check('upgrade_targets_state_chk', inList('state', UPGRADE_TARGET_STATES)),
  ],
);

/** Every step of a device's upgrade (§7 /upgrade/loglist): state reached, progress, message. */
export const upgradeLogs = pgTable(
  'upgrade_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => upgradeCampaigns.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    state: varchar('state', { length: 12 }).notNull(),
    attempt: smallint('attempt').notNull().default(0),
    progress: smallint('progress'),
    message: text('message'),
  },
  (t) => [
    index('upgrade_logs_campaign_idx').on(t.campaignId, t.at),
    index('upgrade_logs_device_idx').on(t.deviceId, t.at),
  ],
);
