import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { users } from './users.js';

/** Opaque session tokens: only the SHA-256 of the token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: varchar('token_hash', { length: 64 }).notNull().unique(),
    ip: varchar('ip', { length: 64 }).notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: varchar('revoked_reason', { length: 16 }),
  },
  (t) => [
    index('sessions_user_active_idx').on(t.userId).where(sql`revoked_at is null`),
    index('sessions_expires_idx').on(t.expiresAt),
  ],
);

/** Single-use captcha challenges (2-minute expiry). */
export const captchas = pgTable(
  'captchas',
  {
    key: uuid('key').primaryKey(),
    answer: varchar('answer', { length: 16 }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('captchas_expires_idx').on(t.expiresAt)],
);

/** Administrator login log: success, failure, lockout, logout (also drives the lockout rule). */
export const loginLogs = pgTable(
  'login_logs',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    username: varchar('username', { length: 64 }).notNull(),
    result: varchar('result', { length: 16 }).notNull(),
    ip: varchar('ip', { length: 64 }).notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('login_logs_username_ip_idx').on(t.username, t.ip, t.createdAt),
    index('login_logs_user_idx').on(t.userId, t.createdAt),
    index('login_logs_created_idx').on(t.createdAt, t.id),
    // The login log's username filter: the whole name, any case; `result` and the username last
    // for a username (+ result) counted from the index alone (see operation_logs_username_idx).
    index('login_logs_username_lower_idx').on(sql`lower(${t.username}) text_pattern_ops`, t.createdAt, t.result, t.username),
  ],
);

/** Failed-login counter per username and address: 5 failures in 15 minutes lock for 15 minutes. */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    username: varchar('username', { length: 64 }).notNull(),
    ip: varchar('ip', { length: 64 }).notNull(),
    failures: integer('failures').notNull().default(0),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.username, t.ip] })],
);
