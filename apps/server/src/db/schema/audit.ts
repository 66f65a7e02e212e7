import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/** Operation log: one row per state-changing API call, written in the change's transaction. */
export const operationLogs = pgTable(
  'operation_logs',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    username: varchar('username', { length: 64 }).notNull(),
    /** Path of the acting user, so logs are scoped like users (a user sees its subtree's logs). */
    userPath: text('user_path').notNull(),
    role: varchar('role', { length: 64 }).notNull(),
    /** `<entity>.<verb>`, e.g. `user.add`. */
    action: varchar('action', { length: 64 }).notNull(),
    entity: varchar('entity', { length: 32 }).notNull(),
    entityId: varchar('entity_id', { length: 64 }).notNull().default(''),
    /** The object's name when the change was made (username, role name, SN…), for readers. */
    entityName: varchar('entity_name', { length: 128 }).notNull().default(''),
    /** What changed, as JSON; passwords and tokens are never included. */
    summary: text('summary').notNull().default(''),
    ip: varchar('ip', { length: 64 }).notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    /** `success`, or `failure` with the error code in the summary. */
    result: varchar('result', { length: 16 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // (created_at, id): the lists' order, ties included (one import or one start writes many rows
    // with the same time), straight from the index.
    index('operation_logs_created_idx').on(t.createdAt, t.id),
    index('operation_logs_path_idx').on(t.userPath.op('text_pattern_ops'), t.createdAt),
    index('operation_logs_action_idx').on(t.action, t.createdAt),
    index('operation_logs_entity_idx').on(t.entity, t.createdAt),
    // "Failures only" (or successes), newest first and counted up to the cap from the index: by
    // the time order it read 50 rows per failure at a 2 % failure rate (bench/README.md).
    index('operation_logs_result_idx').on(t.result, t.createdAt, t.id),
    // The username filter: the whole name, any case (lower(username) = …), newest first; `result`
    // and the username itself last so that a username (+ result) is counted from the index alone:
    // PostgreSQL reads an expression index only (no table rows) when it also holds the column the
    // expression is of (bench/README.md: 10,000 logins counted in 147 → 4 ms).
    index('operation_logs_username_idx').on(sql`lower(${t.username}) text_pattern_ops`, t.createdAt, t.result, t.username),
  ],
);

/** Up to 3 notification emails per user (§5). */
export const userEmails = pgTable(
  'user_emails',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: varchar('email', { length: 254 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('user_emails_user_email_uq').on(t.userId, t.email)],
);

/**
 * Errors the console hit in browsers (issue #39): no user and no address are kept, the route
 * without its query. Kept 30 days (`ClientErrorService.prune`).
 */
export const clientErrors = pgTable(
  'client_errors',
  {
    id: serial('id').primaryKey(),
    kind: varchar('kind', { length: 16 }).notNull(),
    message: varchar('message', { length: 500 }).notNull(),
    stack: text('stack').notNull().default(''),
    route: varchar('route', { length: 256 }).notNull(),
    version: varchar('version', { length: 64 }).notNull(),
    userAgent: varchar('user_agent', { length: 256 }).notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('client_errors_created_idx').on(t.createdAt, t.id),
    index('client_errors_kind_idx').on(t.kind, t.createdAt, t.id),
    index('client_errors_route_idx').on(t.route.op('text_pattern_ops'), t.createdAt),
    index('client_errors_version_idx').on(t.version, t.createdAt),
    // Words of the message, any case (`q`), like the device search (migration 0016's pg_trgm).
    index('client_errors_message_trgm_idx').using('gin', sql`lower(${t.message}) gin_trgm_ops`),
  ],
);
