import { and, eq, gte, like, lte, sql, type SQL } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { AUDIT_ACTIONS, type EndpointParsedQuery, type auditApi } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { loginLogs, operationLogs, roles, users } from '../../db/schema/index.js';
import { asValue, boundTime, escapeLike, placeholders, stripNul, type Bind } from '../../lib/sql.js';
import { cappedTotal, listVersion, versionedPage } from '../../lib/paging.js';
import { keysetPage, keysetListRows, keysetValue, type Keyset } from '../../lib/keyset.js';

export type OperationLogRow = typeof operationLogs.$inferInsert;

/** Writes one row; NUL bytes of a refused request's input are dropped so the row is never lost. */
export async function insertOperationLog(db: Executor, row: OperationLogRow) {
  const clean = Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, typeof v === 'string' ? stripNul(v) : v]),
  ) as OperationLogRow;
  await db.insert(operationLogs).values(clean);
}

/** The validated query of GET /logs/list (or /logs/loginlist), scoped to the caller's subtree. */
type Scoped<Q> = Q & {
  /** Subtree path of the caller; undefined for the super administrator (everything). */
  scopePath?: string;
};
export type LogFilter = Scoped<EndpointParsedQuery<typeof auditApi.operations>>;
export type LoginLogFilter = Scoped<EndpointParsedQuery<typeof auditApi.logins>>;

export async function listOperationLogs(db: Executor, f: LogFilter) {
  // Built with placeholders: the queries are prepared once per shape (lib/sql.ts runPrepared).
  const { bind, values, shape } = placeholders();
  const isCode = f.action !== undefined && (AUDIT_ACTIONS as readonly string[]).includes(f.action);
  const conds: (SQL | undefined)[] = [
    f.scopePath ? like(operationLogs.userPath, bind('scope', `${escapeLike(f.scopePath)}%`)) : undefined,
    // The whole username, whatever the case: the (lower(username), created_at) index hands over the
    // user's rows newest first. A substring had to read all 10 million rows when nothing matched,
    // and a prefix spanning several users sorted all their rows (0.8 s for 100,000).
    f.username ? eq(sql`lower(${operationLogs.username})`, bind('username', f.username.toLowerCase())) : undefined,
    // A whole action code (what the console's select sends) is an equality the (action, created_at)
    // index answers; anything else stays a prefix ("device.").
    f.action
      ? isCode
        ? eq(operationLogs.action, bind('action', f.action))
        : like(operationLogs.action, bind('actionPrefix', `${escapeLike(f.action)}%`))
      : undefined,
    f.entity ? eq(operationLogs.entity, bind('entity', f.entity)) : undefined,
    f.result ? eq(operationLogs.result, bind('result', f.result)) : undefined,
    f.from ? gte(operationLogs.createdAt, boundTime(bind, 'from', f.from)) : undefined,
    f.to ? lte(operationLogs.createdAt, boundTime(bind, 'to', f.to)) : undefined,
  ];
  const where = and(...conds);
  const shaped = { db, shape: shape('operationLogs'), values };
  const keyset: Keyset = { sort: 'createdAt', order: f.order, column: operationLogs.createdAt, id: operationLogs.id, kind: 'timestamp' };
  const [rows, total] = await Promise.all([
    keysetListRows(
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
      shaped,
      false,
      // A deep page starts at a remembered row while no operation log was written or removed
      // (the operation logs' counter, migration 0034); the rows' creation time never changes.
      { db, table: operationLogs, key: `operation_logs\u0000${shaped.shape}\u0000${JSON.stringify(values)}`, version: listVersion('operation_logs') },
    ),
    cappedTotal(db, { ...shaped, matches: () => db.select({ one: sql`1` }).from(operationLogs).where(where) }),
  ]);
  const page = keysetPage(keyset, rows.map((r) => ({ ...r, id: r.log.id })), f.limit);
  return { ...total, next: page.next, items: page.rows.map((r) => ({ ...r.log, roleName: r.roleName ?? '' })) };
}

/** The login log list's conditions; with `placeholders()`'s bind every value is a placeholder. */
function loginLogWhere(f: LoginLogFilter, bind: Bind = asValue) {
  return and(
    f.scopePath ? like(users.path, bind('scope', `${escapeLike(f.scopePath)}%`)) : undefined,
    f.username ? eq(sql`lower(${loginLogs.username})`, bind('username', f.username.toLowerCase())) : undefined,
    f.result ? eq(loginLogs.result, bind('result', f.result)) : undefined,
    f.from ? gte(loginLogs.createdAt, boundTime(bind, 'from', f.from)) : undefined,
    f.to ? lte(loginLogs.createdAt, boundTime(bind, 'to', f.to)) : undefined,
  );
}

/** Login logs; scoped callers see the logs of users in their subtree only. */
export async function listLoginLogs(db: Executor, f: LoginLogFilter) {
  const { bind, values, shape } = placeholders();
  const where = loginLogWhere(f, bind);
  // The scope (a placeholder named in the shape) also decides the join below.
  const shaped = { db, shape: shape('loginLogs'), values };
  const keyset: Keyset = { sort: 'createdAt', order: f.order, column: loginLogs.createdAt, id: loginLogs.id, kind: 'timestamp' };
  // Only a scoped caller needs the user (its path); the administrator's count reads the logs alone.
  const from = <S extends SelectedFields>(fields: S) =>
    f.scopePath ? db.select(fields).from(loginLogs).innerJoin(users, eq(users.id, loginLogs.userId)) : db.select(fields).from(loginLogs);
  // The total is remembered while no login log was written and no user moved (the login logs'
  // list counter, read with the page's rows): a username with 10,000 logins is counted once, not
  // per request. Its count is run as SQL text, with the values in it.
  const [rows, total] = await versionedPage(
    db,
    'login_logs',
    shaped,
    () => from({ one: sql`1` }).where(loginLogWhere(f)),
    () =>
      keysetListRows(
        keyset,
        f,
        where,
        (cond) => from({ log: loginLogs, keyset: keysetValue(keyset), listVersion: listVersion('login_logs') }).where(cond),
        (cond) => from({ id: loginLogs.id }).where(cond),
        shaped,
      ),
  );
  const page = keysetPage(keyset, rows.map((r) => ({ ...r, id: r.log.id })), f.limit);
  return { ...total, next: page.next, items: page.rows.map((r) => r.log) };
}
