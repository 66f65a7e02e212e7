import { and, eq, gt, inArray, isNull, like, lt, ne, sql } from 'drizzle-orm';
import { SUPERADMIN, type LoginResult, type SessionEndReason } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { escapeLike, stripNul } from '../../lib/sql.js';
import { userActive } from '../../lib/query/visibility.js';
import {
  captchas,
  loginLogs,
  loginThrottle,
  roles,
  sessions,
  users,
} from '../../db/schema/index.js';

export const LOCK_FAILURES = 5;
export const LOCK_MINUTES = 15;

export async function insertCaptcha(db: Executor, key: string, answer: string, ttlSeconds: number) {
  await db.insert(captchas).values({
    key,
    answer,
    expiresAt: sql`now() + make_interval(secs => ${ttlSeconds})`,
  });
  // Opportunistic clean-up keeps the table small without a scheduler.
  await db.delete(captchas).where(lt(captchas.expiresAt, sql`now() - interval '1 hour'`));
}

/** Deletes the challenge (single use) and returns its answer if it had not expired. */
/** A captcha's answer while it is valid, leaving it in place (its audio form). */
export async function peekCaptcha(db: Executor, key: string): Promise<string | undefined> {
  const [row] = await db
    .select({ answer: captchas.answer })
    .from(captchas)
    .where(and(eq(captchas.key, key), gt(captchas.expiresAt, sql`now()`)));
  return row?.answer;
}

export async function takeCaptcha(db: Executor, key: string): Promise<string | undefined> {
  const [row] = await db
    .delete(captchas)
    .where(eq(captchas.key, key))
    .returning({ answer: captchas.answer, expiresAt: captchas.expiresAt });
  if (!row || row.expiresAt.getTime() < Date.now()) return undefined;
  return row.answer;
}

/**
 * Whether a user may sign in: its own flag, and no disabled user above it (the ids in its
 * materialised path, `/1/5/9/`). Disabling a user thereby disables its whole subtree, while the
 * sub-users keep their own flags for when it is enabled again.
 */
// Spelled out with the table name: Drizzle leaves columns unqualified in single-table selects,
// and inside the subquery they would then name the ancestor's columns.
const effectivelyEnabled = sql<boolean>`${userActive('users')}`;

export async function findUserForLogin(db: Executor, username: string) {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      passwordHash: users.passwordHash,
      type: users.type,
      roleId: users.roleId,
      language: users.language,
      enabled: effectivelyEnabled,
    })
    .from(users)
    .where(eq(users.username, username));
  return row;
}

export async function lockedUntil(db: Executor, username: string, ip: string) {
  const [row] = await db
    .select({ lockedUntil: loginThrottle.lockedUntil })
    .from(loginThrottle)
    .where(
      and(
        eq(loginThrottle.username, username),
        eq(loginThrottle.ip, ip),
        gt(loginThrottle.lockedUntil, sql`now()`),
      ),
    );
  return row?.lockedUntil ?? undefined;
}

/**
 * Counts a failure inside a 15-minute window; the fifth locks the pair for 15 minutes.
 * Returns the lock end when this failure caused a lock.
 */
export async function recordFailure(db: Executor, username: string, ip: string) {
  const window = sql.raw(`interval '${LOCK_MINUTES} minutes'`);
  const [row] = await db
    .insert(loginThrottle)
    .values({ username, ip, failures: 1 })
    .onConflictDoUpdate({
      target: [loginThrottle.username, loginThrottle.ip],
      set: {
        failures: sql`case when ${loginThrottle.windowStart} > now() - ${window} then ${loginThrottle.failures} + 1 else 1 end`,
        windowStart: sql`case when ${loginThrottle.windowStart} > now() - ${window} then ${loginThrottle.windowStart} else now() end`,
      },
    })
    .returning({ failures: loginThrottle.failures });
  if ((row?.failures ?? 0) < LOCK_FAILURES) return undefined;
  const [locked] = await db
    .update(loginThrottle)
    .set({ failures: 0, windowStart: sql`now()`, lockedUntil: sql`now() + ${window}` })
    .where(and(eq(loginThrottle.username, username), eq(loginThrottle.ip, ip)))
    .returning({ lockedUntil: loginThrottle.lockedUntil });
  return locked?.lockedUntil ?? undefined;
}

export async function clearFailures(db: Executor, username: string, ip: string) {
  await db
    .delete(loginThrottle)
    .where(and(eq(loginThrottle.username, username), eq(loginThrottle.ip, ip)));
}

export async function insertLoginLog(
  db: Executor,
  row: { userId: number | null; username: string; result: LoginResult; ip: string; userAgent: string },
) {
  await db.insert(loginLogs).values({ ...row, username: stripNul(row.username), userAgent: stripNul(row.userAgent) });
}

export async function insertSession(
  db: Executor,
  row: { userId: number; tokenHash: string; ip: string; userAgent: string; ttlSeconds: number },
) {
  const [s] = await db
    .insert(sessions)
    .values({
      userId: row.userId,
      tokenHash: row.tokenHash,
      ip: row.ip,
      userAgent: row.userAgent,
      expiresAt: sql`now() + make_interval(secs => ${row.ttlSeconds})`,
    })
    .returning({ id: sessions.id });
  return s!.id;
}

/** The session behind a token hash, with what every request needs about its user. */
export async function findSession(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      lastUsedAt: sessions.lastUsedAt,
      revokedAt: sessions.revokedAt,
      revokedReason: sessions.revokedReason,
      userId: users.id,
      username: users.username,
      type: users.type,
      path: users.path,
      enabled: effectivelyEnabled,
      language: users.language,
      roleId: roles.id,
      roleIdentification: roles.identification,
      // The role's codes in the same round trip (the route's permission check needs them); none
      // for the super administrator, who holds every code.
      codes: sql<string[] | null>`case when ${roles.identification} = ${SUPERADMIN} then null
        else coalesce((select array_agg(p.identification) from role_permissions rp
          join permissions p on p.id = rp.permission_id where rp.role_id = ${roles.id}), '{}') end`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(sessions.tokenHash, tokenHash));
  return row;
}

export async function touchSession(db: Executor, sessionId: number, ttlSeconds: number) {
  await db
    .update(sessions)
    .set({
      lastUsedAt: sql`now()`,
      expiresAt: sql`now() + make_interval(secs => ${ttlSeconds})`,
    })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Revokes sessions and returns their ids (for closing live sockets). */
export async function revokeSessions(
  db: Executor,
  where: { sessionId: number } | { userId: number; exceptSessionId?: number } | { pathPrefix: string },
  reason: SessionEndReason,
): Promise<number[]> {
  const cond =
    'sessionId' in where
      ? eq(sessions.id, where.sessionId)
      : 'pathPrefix' in where
        ? inArray(sessions.userId, db.select({ id: users.id }).from(users).where(like(users.path, `${escapeLike(where.pathPrefix)}%`)))
        : and(
            eq(sessions.userId, where.userId),
            where.exceptSessionId ? ne(sessions.id, where.exceptSessionId) : undefined,
          );
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(cond, isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.map((r) => r.id);
}
