import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';
import { deviceTypes } from './devicetypes.js';
import { stores } from './stores.js';
import { users } from './users.js';

export const projects = pgTable(
  'projects',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 64 }).notNull(),
    remarks: text('remarks').notNull().default(''),
    address: varchar('address', { length: 256 }).notNull().default(''),
    lng: doublePrecision('lng'),
    lat: doublePrecision('lat'),
    weather: boolean('weather').notNull().default(false),
    map: boolean('map').notNull().default(true),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    /** Path of the owner: the project is visible in the owner's ancestors' subtrees. */
    ownerPath: text('owner_path').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('projects_owner_path_idx').on(t.ownerPath.op('text_pattern_ops')),
    index('projects_owner_idx').on(t.ownerId),
    // The list's default order (created_at desc, id desc) read off the index: no sort of every project.
    index('projects_created_idx').on(t.createdAt, t.id),
    // The name filter (a substring, any case: `lower(name) like`) on a tenant with many projects.
    index('projects_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
  ],
);

export const roadSections = pgTable(
  'road_sections',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 64 }).notNull(),
    description: text('description').notNull().default(''),
    /** Ordered [lng, lat] points of the line. */
    points: jsonb('points').notNull().default([]),
    sort: integer('sort').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('road_sections_project_idx').on(t.projectId, t.sort)],
);

/** Users (besides the owner's line) who may see a project. */
export const projectUsers = pgTable(
  'project_users',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index('project_users_user_idx').on(t.userId)],
);

export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    sn: varchar('sn', { length: 64 }).notNull().unique(),
    name: varchar('name', { length: 64 }).notNull(),
    typeId: integer('type_id')
      .notNull()
      .references(() => deviceTypes.id),
    projectId: integer('project_id').references(() => projects.id),
    /** Sub-devices point at their parent device. */
    parentId: integer('parent_id'),
    /** Path of the owning user (creator or project owner) for scoping. */
    ownerPath: text('owner_path').notNull(),
    address: varchar('address', { length: 256 }).notNull().default(''),
    mapMode: smallint('map_mode').notNull().default(0),
    lng: doublePrecision('lng'),
    lat: doublePrecision('lat'),
    remarks: text('remarks').notNull().default(''),
    alarmPhone: varchar('alarm_phone', { length: 32 }).notNull().default(''),
    warningLevel: smallint('warning_level').notNull().default(0),
    btCode: varchar('bt_code', { length: 64 }).notNull().default(''),
    version4g: varchar('version_4g', { length: 64 }).notNull().default(''),
    hardwareVersion: varchar('hardware_version', { length: 64 }).notNull().default(''),
    simNumber: varchar('sim_number', { length: 24 }).notNull().default(''),
    imei: varchar('imei', { length: 17 }).notNull().default(''),
    manufacturerModel: varchar('manufacturer_model', { length: 64 }).notNull().default(''),
    description: text('description').notNull().default(''),
    /** A disabled device is refused at login (MQTT CONNECT, HTTP uplink) and disconnected. */
    enabled: boolean('enabled').notNull().default(true),
    /** Written by ingestion. When the device was last heard from is in `device_presence`. */
    online: boolean('online').notNull().default(false),
    /**
     * What the device reports about itself in its status message's `info` (firmware versions,
     * signal…), as reported last; null until it reports any. Written by ingestion when it changes.
     */
    /** The device has a camera: its details offer a video H5 URL (video provider). */
    camera: boolean('camera').notNull().default(false),
    /** The camera's id on the video platform (EZVIZ serial, `:channel` optional). */
    cameraSerial: varchar('camera_serial', { length: 64 }).notNull().default(''),
    reportedInfo: jsonb('reported_info').$type<Record<string, string | number | boolean>>(),
    /** The store the pack is stocked at (issue #38); null: at none. */
    storeId: integer('store_id').references(() => stores.id, { onDelete: 'set null' }),
    /** A stocked pack's recorded fault (`returnCheck`, `lost`), until the store clears it. */
    storeFault: varchar('store_fault', { length: 16 }),
    /** SHA-256 of the device's ingestion secret (shown once). */
    credentialHash: varchar('credential_hash', { length: 64 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The list's free-text search: name, SN, IMEI and SIM number in lower case, kept by PostgreSQL.
     * One trigram index over one column answers `q` with one index scan and a plain LIKE recheck
     * (four ILIKEs over four indexes cost ~10 µs a row in a UTF-8 collation: 1.3 s for a term
     * the planner guessed wrong at 100,000 devices).
     */
    search: text('search').generatedAlwaysAs(sql`lower(name || ' ' || sn || ' ' || imei || ' ' || sim_number)`),
  },
  (t) => [
    index('devices_project_idx').on(t.projectId, t.createdAt),
    index('devices_type_idx').on(t.typeId),
    index('devices_owner_path_idx').on(t.ownerPath.op('text_pattern_ops')),
    index('devices_parent_idx').on(t.parentId),
    index('devices_online_idx').on(t.online),
    index('devices_enabled_idx').on(t.enabled),
    // (warning_level, id), (updated_at, id): the list's sorts read either way. Ingestion never
    // writes updated_at, and warning_level was indexed already: its updates stay as HOT as before.
    index('devices_warning_idx').on(t.warningLevel, t.id),
    index('devices_updated_idx').on(t.updatedAt, t.id),
    // (created_at, id): an import writes thousands of devices with one created_at; the list's
    // default order (created_at, id) comes from the index instead of sorting every tie.
    index('devices_created_idx').on(t.createdAt, t.id),
    // The device list's default view (top-level devices, newest first): its pages and deep pages
    // read this index alone while the visibility map is set (page 4,000: 350 → 54 ms).
    index('devices_top_created_idx').on(t.createdAt, t.id).where(sql`parent_id is null`),
    index('devices_imei_idx').on(t.imei),
    index('devices_sim_idx').on(t.simNumber),
    index('devices_name_idx').on(t.name),
    index('devices_store_idx').on(t.storeId).where(sql`store_id is not null`),
    // Every text search of devices (the list's, the typeahead's SN/name prefix, the alarm list's
    // device filter) is LIKE '%q%' on `search`, through this one pg_trgm index (migration 0023
    // dropped the name and SN ones: an import wrote three trigram indexes per device).
    index('devices_search_trgm_idx').using('gin', t.search.op('gin_trgm_ops')),
    // The voice dashboard's devices with alarm phone numbers, counted per scope from this alone.
    index('devices_phones_idx').on(t.ownerPath, t.projectId).where(sql`alarm_phone ~ '[0-9]'`),
    check('devices_warning_level_chk', sql`warning_level between 0 and 4`),
  ],
);

/**
 * When each device was last heard from (written by ingestion at most once a minute per device;
 * null until it first connects). A table of its own, one row per device from the moment the
 * device is created (trigger `devices_presence_add`, migration 0024): the device list sorts by it
 * through its own index, while the devices row keeps its heap-only updates (an index on
 * `devices.last_seen_at` would turn every minute's write into new entries in all of the devices'
 * indexes, the trigram one included).
 */
export const devicePresence = pgTable(
  'device_presence',
  {
    deviceId: integer('device_id')
      .primaryKey()
      .references(() => devices.id, { onDelete: 'cascade' }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    /**
     * `devices.online`, copied by triggers (migration 0069): the list's "online, stalest first"
     * and "offline, latest first" read their own range of `device_presence_online_seen_idx`
     * instead of walking the whole presence index past the other state's devices.
     */
    online: boolean('online').notNull().default(false),
  },
  // Newest first with never-seen devices last; read backwards it is oldest first, never-seen first
  // (the stalest devices): both orders of the list's "last seen" column from one index.
  // (drizzle writes `desc` as `DESC NULLS LAST` for both columns: lib/query/keyset.ts keysetOrder matches it.)
  (t) => [
    index('device_presence_seen_idx').on(t.lastSeenAt.desc().nullsLast(), t.deviceId.desc()),
    index('device_presence_online_seen_idx').on(t.online, t.lastSeenAt.desc().nullsLast(), t.deviceId.desc()),
  ],
);
