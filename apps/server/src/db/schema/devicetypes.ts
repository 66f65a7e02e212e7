import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { ALARM_COMPARISONS, PARAM_DATA_TYPES } from '@iot/contract';
import { inList } from './util.js';

export const deviceTypes = pgTable('device_types', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 32 }).notNull().unique(),
  name: varchar('name', { length: 64 }).notNull(),
  nameEn: varchar('name_en', { length: 64 }).notNull().default(''),
  nameEs: varchar('name_es', { length: 64 }).notNull().default(''),
  nameJa: varchar('name_ja', { length: 64 }).notNull().default(''),
  remarks: text('remarks').notNull().default(''),
  recordTrack: boolean('record_track').notNull().default(false),
  /** Shipped with the console (the battery management unit); cannot be deleted. */
  builtin: boolean('builtin').notNull().default(false),
  /** Path of the creating user: visible in its subtree ('/' = everyone). */
  ownerPath: text('owner_path').notNull().default('/'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The parameters devices of a type report, keyed by semaphore id. */
export const deviceTypeParams = pgTable(
  'device_type_params',
  {
    id: serial('id').primaryKey(),
    typeId: integer('type_id')
      .notNull()
      .references(() => deviceTypes.id, { onDelete: 'cascade' }),
    semaphoreId: varchar('semaphore_id', { length: 32 }).notNull(),
    name: varchar('name', { length: 64 }).notNull(),
    nameEn: varchar('name_en', { length: 64 }).notNull().default(''),
    nameEs: varchar('name_es', { length: 64 }).notNull().default(''),
    nameJa: varchar('name_ja', { length: 64 }).notNull().default(''),
    unit: varchar('unit', { length: 16 }).notNull().default(''),
    groupName: varchar('group_name', { length: 32 }).notNull().default(''),
    dataType: varchar('data_type', { length: 16 }).notNull(),
    precision: smallint('precision').notNull().default(0),
    min: doublePrecision('min'),
    max: doublePrecision('max'),
    enumValues: jsonb('enum_values').notNull().default([]),
    writable: boolean('writable').notNull().default(false),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    uniqueIndex('device_type_params_type_sem_uq').on(t.typeId, t.semaphoreId),
    check('device_type_params_data_type_chk', inList('data_type', PARAM_DATA_TYPES)),
  ],
);

/** Alarm rules per parameter; evaluated by the ingestion pipeline. */
export const deviceTypeAlarms = pgTable(
  'device_type_alarms',
  {
    id: serial('id').primaryKey(),
    typeId: integer('type_id')
      .notNull()
      .references(() => deviceTypes.id, { onDelete: 'cascade' }),
    semaphoreId: varchar('semaphore_id', { length: 32 }).notNull(),
    comparison: varchar('comparison', { length: 16 }).notNull(),
    /** Numeric threshold, or the text/enum value compared with = and ≠. */
    threshold: text('threshold').notNull(),
    threshold2: doublePrecision('threshold2'),
    level: smallint('level').notNull(),
    message: varchar('message', { length: 128 }).notNull(),
    messageEn: varchar('message_en', { length: 128 }).notNull().default(''),
    messageEs: varchar('message_es', { length: 128 }).notNull().default(''),
    messageJa: varchar('message_ja', { length: 128 }).notNull().default(''),
    holdSeconds: integer('hold_seconds').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [
    index('device_type_alarms_type_idx').on(t.typeId),
    check('device_type_alarms_comparison_chk', inList('comparison', ALARM_COMPARISONS)),
    check('device_type_alarms_level_chk', sql`level between 1 and 4`),
  ],
);
