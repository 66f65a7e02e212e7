import { and, eq, gte, inArray, like, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { AUDIT_ACTIONS, type EndpointParsedQuery, type auditApi } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { loginLogs, operationLogs, roles, users } from '../../db/schema/index.js';
import { escapeLike, stripNul } from '../../lib/sql.js';
import { boundTime } from '../../lib/query/filters.js';
import { pageAndTotal } from '../../lib/query/paging.js';
import { keysetPage, keysetRows, keysetValue, type Keyset } from '../../lib/query/keyset.js';

export type OperationLogRow = typeof operationLogs.$inferInsert;

/** Writes one row; NUL bytes of a refused request's input are dropped so the row is never lost. */
export async function insertOperationLog(db: Executor, row: OperationLogRow) {
  const clean = Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, typeof v === 'string' ? stripNul(v) : v]),
  ) as OperationLogRow;
  await db.insert(operationLogs).values(clean);
}

/**
 * Deletes up to `limit` operation logs written before `before`, oldest first: the batch is read
 * from the (created_at, id) index, so each one costs its own rows, never a scan of the table.
 * Answers how many went.
 */
export async function pruneOperationLogs(db: Executor, before: Date, limit: number): Promise<number> {
  const old = db
    .select({ id: operationLogs.id })
    .from(operationLogs)
    .where(lt(operationLogs.createdAt, before))
    .orderBy(operationLogs.createdAt, operationLogs.id)
    .limit(limit);
  const gone = await db.delete(operationLogs).where(inArray(operationLogs.id, old)).returning({ id: operationLogs.id });
  return gone.length;
}

/** The validated query of GET /logs/list (or /logs/loginlist), scoped to the caller's subtree. */
type Scoped<Q> = Q & {
  /** Subtree path of the caller; undefined for the super administrator (everything). */
  scopePath?: string;
};
export type LogFilter = Scoped<EndpointParsedQuery<typeof auditApi.operations>>;
export type LoginLogFilter = Scoped<EndpointParsedQuery<typeof auditApi.logins>>;

export async function listOperationLogs(db: Executor, f: LogFilter) {
  const isCode = f.action !== undefined && (AUDIT_ACTIONS as readonly string[]).includes(f.action);
  const conds: (SQL | undefined)[] = [
    f.scopePath ? like(operationLogs.userPath, `${escapeLike(f.scopePath)}%`) : undefined,
    // The whole username, whatever the case: the (lower(username), created_at) index hands over the
    // user's rows newest first. A substring had to read all 10 million rows when nothing matched,
    // and a prefix spanning several users sorted all their rows (0.8 s for 100,000).
    f.username ? eq(sql`lower(${operationLogs.username})`, f.username.toLowerCase()) : undefined,
    // A whole action code (what the console's select sends) is an equality the (action, created_at)
    // index answers; anything else stays a prefix ("device.").
    f.action
      ? isCode
        ? eq(operationLogs.action, f.action)
        : like(operationLogs.action, `${escapeLike(f.action)}%`)
      : undefined,
    f.entity ? eq(operationLogs.entity, f.entity) : undefined,
    f.result ? eq(operationLogs.result, f.result) : undefined,
    f.from ? gte(operationLogs.createdAt, boundTime(f.from)) : undefined,
    f.to ? lte(operationLogs.createdAt, boundTime(f.to)) : undefined,
  ];
  const where = and(...conds);
  const keyset: Keyset = { sort: 'createdAt', order: f.order, column: operationLogs.createdAt, id: operationLogs.id, kind: 'timestamp' };
  const [rows, total] = await pageAndTotal(
    db,
    f,
    keysetRows(
      keyset,
      f,
      where,
      (cond) =>
        db
          .select({ log: operationLogs, roleName: roles.name, keyset: keysetValue(keyset) })
          .from(operationLogs)
          // The acting role's current name; rows of a deleted role keep only its identification.
          .leftJoin(roles, eq(roles.identification, operationLogs.role))
          .where(cond),
      (cond) => db.select({ id: operationLogs.id }).from(operationLogs).where(cond),
    ),
    db.select({ one: sql`1` }).from(operationLogs).where(where),
  );
  const page = keysetPage(keyset, rows.map((r) => ({ ...r, id: r.log.id })), f.limit);
  return { ...total, next: page.next, items: page.rows.map((r) => ({ ...r.log, roleName: r.roleName ?? '' })) };
}

/** The login log list's conditions. */
function loginLogWhere(f: LoginLogFilter) {
  return and(
    f.scopePath ? like(users.path, `${escapeLike(f.scopePath)}%`) : undefined,
    f.username ? eq(sql`lower(${loginLogs.username})`, f.username.toLowerCase()) : undefined,
    f.result ? eq(loginLogs.result, f.result) : undefined,
    f.from ? gte(loginLogs.createdAt, boundTime(f.from)) : undefined,
    f.to ? lte(loginLogs.createdAt, boundTime(f.to)) : undefined,
  );
}

/** Login logs; scoped callers see the logs of users in their subtree only. */
export async function listLoginLogs(db: Executor, f: LoginLogFilter) {
  const where = loginLogWhere(f);
  const keyset: Keyset = { sort: 'createdAt', order: f.order, column: loginLogs.createdAt, id: loginLogs.id, kind: 'timestamp' };
  // Only a scoped caller needs the user (its path); the administrator's count reads the logs alone.
  const from = <S extends SelectedFields>(fields: S) =>
    f.scopePath ? db.select(fields).from(loginLogs).innerJoin(users, eq(users.id, loginLogs.userId)) : db.select(fields).from(loginLogs);
  const [rows, total] = await pageAndTotal(
    db,
    f,
    keysetRows(
      keyset,
      f,
      where,
      (cond) => from({ log: loginLogs, keyset: keysetValue(keyset) }).where(cond),
      (cond) => from({ id: loginLogs.id }).where(cond),
    ),
    from({ one: sql`1` }).where(where),
  );
  const page = keysetPage(keyset, rows.map((r) => ({ ...r, id: r.log.id })), f.limit);
  return { ...total, next: page.next, items: page.rows.map((r) => r.log) };
}
