import { count, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { loginLogs, roles, users } from '../../db/schema/index.js';

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
