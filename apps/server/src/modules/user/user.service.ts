import {
  ErrorCode,
  type ChangePasswordBody,
  type DashboardStyle,
  type Language,
  type UserInfo,
} from '@iot/contract';
import type { Db } from '../../db/client.js';
import { AppError, invalid } from '../../lib/errors.js';
import { hashPassword } from '../../lib/password.js';
import { audit, type Actor } from '../../plugins/audit.js';
import type { AuthContext, AuthService } from '../auth/auth.service.js';
import type { MenuService } from '../menu/menu.service.js';
import * as repo from './user.repo.js';

export class UserService {
  constructor(
    private readonly db: Db,
    private readonly auth: AuthService,
    private readonly menus: MenuService,
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
      permissions: await this.menus.codesFor(ctx),
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
      await audit(tx, ctx, { entityId: ctx.userId });
    });
    return this.auth.endOtherSessions(ctx.userId, 'password', ctx.sessionId);
  }

  async setPreferences(
    ctx: Actor,
    prefs: {
      language?: Language;
      dashboardStyle?: DashboardStyle;
      corporateName?: string;
      corporateAddress?: string;
      contactNumber?: string;
      introduction?: string;
    },
  ) {
    const set = Object.fromEntries(Object.entries(prefs).filter(([, v]) => v !== undefined));
    await this.db.transaction(async (tx) => {
      if (Object.keys(set).length > 0) await repo.updateUser(tx, ctx.userId, set);
      await audit(tx, ctx, { entityId: ctx.userId, summary: set });
    });
  }

  logins(ctx: AuthContext, page: number, limit: number) {
    return repo.loginHistory(this.db, ctx.userId, page, limit);
  }
}
