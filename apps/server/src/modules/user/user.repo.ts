import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { loginLogs, roles, userPreferences, users } from '../../db/schema/index.js';

export async function findProfile(db: Executor, userId: number) {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      type: users.type,
      roleId: users.roleId,
      roleName: roles.name,
      role: roles.identification,
      avatar: users.avatar,
      introduction: users.introduction,
      dashboardStyle: users.dashboardStyle,
      language: users.language,
      corporateName: users.corporateName,
      corporateAddress: users.corporateAddress,
      contactNumber: users.contactNumber,
      alarmMail: users.alarmMail,
      alarmPopupLevel: users.alarmPopupLevel,
      alarmMailLevel: users.alarmMailLevel,
      alarmSmsLevel: users.alarmSmsLevel,
      alarmCallLevel: users.alarmCallLevel,
    })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.id, userId));
  return row;
}

/** The caller's own profile fields, locked until the transaction ends (compare, then write). */
export async function lockPreferences(db: Executor, userId: number) {
  const [row] = await db
    .select({
      language: users.language,
      dashboardStyle: users.dashboardStyle,
      corporateName: users.corporateName,
      corporateAddress: users.corporateAddress,
      contactNumber: users.contactNumber,
      introduction: users.introduction,
      alarmMail: users.alarmMail,
      alarmPopupLevel: users.alarmPopupLevel,
      alarmMailLevel: users.alarmMailLevel,
      alarmSmsLevel: users.alarmSmsLevel,
      alarmCallLevel: users.alarmCallLevel,
    })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row;
}

export async function passwordHashOf(db: Executor, userId: number) {
  const [row] = await db
    .select({ hash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId));
  return row?.hash;
}

export async function updateUser(
  db: Executor,
  userId: number,
  set: Partial<{
    passwordHash: string;
    language: string;
    dashboardStyle: string;
    corporateName: string;
    corporateAddress: string;
    contactNumber: string;
    introduction: string;
    alarmMail: boolean;
    alarmPopupLevel: number;
    alarmMailLevel: number;
    alarmSmsLevel: number | null;
    alarmCallLevel: number | null;
  }>,
) {
  await db
    .update(users)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

export async function loginHistory(db: Executor, userId: number, page: number, limit: number) {
  const where = eq(loginLogs.userId, userId);
  const [items, [total]] = await Promise.all([
    db
      .select({
        result: loginLogs.result,
        ip: loginLogs.ip,
        userAgent: loginLogs.userAgent,
        createdAt: loginLogs.createdAt,
      })
      .from(loginLogs)
      .where(where)
      .orderBy(desc(loginLogs.createdAt), desc(loginLogs.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(loginLogs).where(where),
  ]);
  return { total: total?.n ?? 0, items };
}

/** One stored screen setting of a user, or undefined. */
export async function findPreference(db: Executor, userId: number, key: string) {
  const [row] = await db
    .select({ value: userPreferences.value })
    .from(userPreferences)
    .where(and(eq(userPreferences.userId, userId), eq(userPreferences.key, key)));
  return row?.value;
}

/**
 * Stores a screen setting; a new key only while the user keeps fewer than `maxKeys` (one statement:
 * the count and the write see the same rows). Answers whether it was stored.
 */
export async function upsertPreference(db: Executor, userId: number, key: string, value: unknown, maxKeys: number) {
  const json = JSON.stringify(value);
  const res = await db.execute(sql`
    insert into ${userPreferences} (user_id, key, value, updated_at)
    select ${userId}, ${key}, ${json}::jsonb, now()
    where exists (select 1 from ${userPreferences} where user_id = ${userId} and key = ${key})
       or (select count(*) from ${userPreferences} where user_id = ${userId}) < ${maxKeys}
    on conflict (user_id, key) do update set value = excluded.value, updated_at = excluded.updated_at
    returning key`);
  return (res as unknown as { rows: unknown[] }).rows.length > 0;
}
