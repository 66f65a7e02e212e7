import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
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
import { DASHBOARD_STYLES, LANGUAGES } from '@iot/contract';
import { inList } from './util.js';
import { roles } from './rbac.js';


export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: varchar('username', { length: 64 }).notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    /** 0 platform administrator, 1 company account (§2 user information). */
    type: smallint('type').notNull().default(0),
    parentId: integer('parent_id'),
    /** Materialised ancestry, `/1/5/9/`: a subtree is `path LIKE '/1/5/%'`. */
    path: text('path').notNull().default('/'),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id),
    corporateName: varchar('corporate_name', { length: 128 }).notNull().default(''),
    corporateAddress: varchar('corporate_address', { length: 256 }).notNull().default(''),
    contactNumber: varchar('contact_number', { length: 32 }).notNull().default(''),
    avatar: text('avatar').notNull().default(''),
    introduction: text('introduction').notNull().default(''),
    dashboardStyle: varchar('dashboard_style', { length: 16 }).notNull().default('default'),
    language: varchar('language', { length: 8 }).notNull().default('en'),
    /** Opted in to alarm e-mails of the projects shared with the user (owners always get them). */
    alarmMail: boolean('alarm_mail').notNull().default(false),
    /**
     * The lowest alarm level that pops up in the user's console and the lowest mailed to the user;
     * null: the user never chose (ALARM_NOTIFY_LEVEL, ALARM_MAIL_MIN_LEVEL).
     */
    alarmPopupLevel: smallint('alarm_popup_level'),
    alarmMailLevel: smallint('alarm_mail_level'),
    /**
     * The lowest alarm level sent to the user's contact number by SMS, and by voice call; null:
     * none (the user opts in by choosing a level).
     */
    alarmSmsLevel: smallint('alarm_sms_level'),
    alarmCallLevel: smallint('alarm_call_level'),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('users_path_idx').on(t.path.op('text_pattern_ops')),
    index('users_parent_idx').on(t.parentId),
    index('users_role_idx').on(t.roleId),
    // The navbar search (a substring of the username, any case: `lower(username) like`).
    index('users_username_trgm_idx').using('gin', sql`lower(${t.username}) gin_trgm_ops`),
    check('users_dashboard_style_chk', inList('dashboard_style', DASHBOARD_STYLES)),
    check('users_language_chk', inList('language', LANGUAGES)),
    check('users_alarm_popup_level_chk', sql`alarm_popup_level between 1 and 4`),
    check('users_alarm_mail_level_chk', sql`alarm_mail_level between 1 and 4`),
    check('users_alarm_sms_level_chk', sql`alarm_sms_level between 1 and 4`),
    check('users_alarm_call_level_chk', sql`alarm_call_level between 1 and 4`),
  ],
);

/**
 * Small screen settings a user keeps across browsers (`table:<id>`: a list's column choice), one
 * JSON value per key; keys and sizes are bounded by the contract (`USER_PREFERENCE_LIMITS`).
 */
export const userPreferences = pgTable(
  'user_preferences',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: varchar('key', { length: 64 }).notNull(),
    value: jsonb('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);
