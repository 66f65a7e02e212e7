import {
  ALARM_NOTIFY_LEVEL,
  ErrorCode,
  type AlarmLevel,
  type ChangePasswordBody,
  type DashboardStyle,
  type Language,
  type LoginRecord,
  type Page,
  type PreferenceDto,
  type Preferences,
  USER_PREFERENCE_LIMITS,
  type UserInfo,
} from '@iot/contract';
import type { Db } from '../../db/client.js';
import { AppError, conflict, invalid } from '../../lib/errors.js';
import { hashPassword } from '../../db/password.js';
import { audit, auditNothing, type Actor } from '../audit/audit.service.js';
import type { AuthContext, AuthService } from '../auth/auth.service.js';
import type { PermissionService } from '../permission/permission.service.js';
import * as repo from './user.repo.js';

export class UserService {
  constructor(
    private readonly db: Db,
    private readonly auth: AuthService,
    private readonly permissions: PermissionService,
    /** The mail level of users who never chose one (ALARM_MAIL_MIN_LEVEL). */
    private readonly defaults: { alarmMailLevel: number } = { alarmMailLevel: 3 },
  ) {}

  async info(ctx: AuthContext): Promise<UserInfo> {
    const u = await repo.findProfile(this.db, ctx.userId);
    if (!u) throw new AppError(ErrorCode.TOKEN_ILLEGAL, 'Illegal token, please log in');
    return {
      id: u.id,
      roles: [u.role],
      roleId: u.roleId,
      roleName: u.roleName,
      name: u.username,
      avatar: u.avatar,
      introduction: u.introduction,
      type: u.type === 1 ? 1 : 0,
      dashboardStyle: u.dashboardStyle as DashboardStyle,
      language: u.language as Language,
      corporateName: u.corporateName,
      corporateAddress: u.corporateAddress,
      contactNumber: u.contactNumber,
      alarmMail: u.alarmMail,
      alarmPopupLevel: (u.alarmPopupLevel ?? ALARM_NOTIFY_LEVEL) as AlarmLevel,
      alarmMailLevel: (u.alarmMailLevel ?? this.defaults.alarmMailLevel) as AlarmLevel,
      alarmSmsLevel: u.alarmSmsLevel as AlarmLevel | null,
      alarmCallLevel: u.alarmCallLevel as AlarmLevel | null,
      permissions: await this.permissions.codesFor(ctx),
    };
  }

  /** Changes the caller's password and ends the caller's other sessions. */
  async changePassword(ctx: Actor, body: ChangePasswordBody) {
    const hash = await repo.passwordHashOf(this.db, ctx.userId);
    if (!(await this.auth.verifyCurrentPassword(ctx, ctx, hash, body.oldPassword))) {
      throw invalid('oldPassword', 'oldPasswordWrong');
    }
    if (body.oldPassword === body.newPassword) {
      throw invalid('newPassword', 'samePassword');
    }
    const passwordHash = await hashPassword(body.newPassword);
    await this.db.transaction(async (tx) => {
      await repo.updateUser(tx, ctx.userId, { passwordHash });
      await audit(tx, ctx, { entityId: ctx.userId, name: ctx.username });
    });
    return this.auth.endOtherSessions(ctx.userId, 'password', ctx.sessionId);
  }

  /**
   * Changes the fields of the caller's own profile that differ from the stored ones. Sending what
   * is already stored (the console re-saving the language at login, a double click) changes
   * nothing and writes no operation-log row.
   */
  async setPreferences(ctx: Actor, prefs: Preferences) {
    await this.db.transaction(async (tx) => {
      // Locked, so two identical requests at once cannot both see a change.
      const stored = await repo.lockPreferences(tx, ctx.userId);
      const changed = Object.fromEntries(
        Object.entries(prefs).filter(([key, value]) => value !== undefined && value !== stored?.[key as keyof Preferences]),
      ) as Preferences;
      if (Object.keys(changed).length === 0) {
        auditNothing(ctx);
        return;
      }
      await repo.updateUser(tx, ctx.userId, changed);
      await audit(tx, ctx, { entityId: ctx.userId, name: ctx.username, summary: changed });
    });
  }

  /** One of the caller's own screen settings; null when never saved. */
  async preference(ctx: AuthContext, key: string): Promise<PreferenceDto> {
    const value = await repo.findPreference(this.db, ctx.userId, key);
    return { key, value: (value ?? null) as PreferenceDto['value'] };
  }

  /** Stores one of the caller's own screen settings (never another user's: the key is the caller's). */
  async setPreference(ctx: AuthContext, key: string, value: NonNullable<PreferenceDto['value']>): Promise<PreferenceDto> {
    const max = USER_PREFERENCE_LIMITS.keys;
    if (!(await repo.upsertPreference(this.db, ctx.userId, key, value, max))) {
      throw conflict('preferencesFull', { params: { max }, field: 'key' });
    }
    return { key, value };
  }

  /** The caller's own login history, newest first. */
  async logins(ctx: AuthContext, page: number, limit: number): Promise<Page<LoginRecord>> {
    const res = await repo.loginHistory(this.db, ctx.userId, page, limit);
    return { total: res.total, items: res.items.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
  }
}
