import crypto from 'node:crypto';
import { ErrorCode, type LoginBody, type Language, type SessionUser } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import { captchaWav } from './captcha-audio.js';
import type { EventBus } from '../../lib/events.js';
import { dummyHash, verifyPassword } from '../../db/password.js';
import type { AuthContext, ClientInfo } from '../../lib/caller.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import * as repo from './auth.repo.js';
import { SessionCache, type CachedSession } from './session-cache.js';

export const CAPTCHA_TTL_SECONDS = 120;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type { AuthContext, ClientInfo };

export class AuthService {
  /** Sessions read by recent requests (app.ts feeds it the database's `auth_changed`). */
  readonly sessions: SessionCache;

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly opts: { captcha: boolean; sessionTtl: number; lockout: boolean; sessionCacheTtl?: number },
  ) {
    this.sessions = new SessionCache((opts.sessionCacheTtl ?? 0) * 1000);
    // Ended here or (with a shared bus) by another instance: gone before its notification.
    bus.on('session.ended', ({ sessionIds }) => this.sessions.forget(sessionIds));
  }

  get captchaRequired() {
    return this.opts.captcha;
  }

  async createCaptcha() {
    // Loaded at the first captcha, not at start (bench/README.md "Production start").
    const { default: svgCaptcha } = await import('svg-captcha');
    const c = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1ilI', background: '#f0f2f5' });
    const key = crypto.randomUUID();
    await repo.insertCaptcha(this.db, key, c.text.toLowerCase(), CAPTCHA_TTL_SECONDS);
    return { key, image: c.data, required: this.opts.captcha };
  }

  /** A valid captcha's challenge spoken (WAV); it stays valid for the login. */
  async captchaAudio(key: string): Promise<Buffer> {
    const answer = await repo.peekCaptcha(this.db, key);
    if (!answer) throw notFound('captchaNotFound');
    return captchaWav(answer);
  }

  private async checkCaptcha(body: { captcha: string; key: string }) {
    if (!this.opts.captcha) return;
    if (!body.captcha || !body.key) {
      throw new AppError(ErrorCode.CAPTCHA, 'captcha: the verification code is required', {
        field: 'captcha',
      });
    }
    // Keys are UUIDs (the column's type): anything else is simply a wrong key, not a query.
    const answer = UUID.test(body.key) ? await repo.takeCaptcha(this.db, body.key) : undefined;
    if (!answer || answer !== body.captcha.toLowerCase()) {
      throw new AppError(ErrorCode.CAPTCHA, 'captcha: the verification code is wrong or expired', {
        field: 'captcha',
      });
    }
  }

  async login(body: Required<LoginBody>, client: ClientInfo): Promise<{ token: string; user: SessionUser }> {
    const username = body.username.trim();
    await this.checkCaptcha(body);

    if (this.opts.lockout) {
      const until = await repo.lockedUntil(this.db, username, client.ip);
      if (until) {
        await repo.insertLoginLog(this.db, { userId: null, username, result: 'lockout', ...client });
        throw lockedError(until);
      }
    }

    const user = await repo.findUserForLogin(this.db, username);
    const good = user
      ? await verifyPassword(user.passwordHash, body.password)
      : await verifyPassword(await dummyHash(), body.password).then(() => false);

    // A disabled account (or one below a disabled user) answers exactly like a wrong password,
    // so the answer never confirms a password; the login log records what happened.
    const disabled = Boolean(user && good && !user.enabled);
    if (!user || !good || disabled) {
      const until = this.opts.lockout
        ? await repo.recordFailure(this.db, username, client.ip)
        : undefined;
      await repo.insertLoginLog(this.db, {
        userId: user?.id ?? null,
        username,
        result: disabled ? 'disabled' : until ? 'lockout' : 'failure',
        ...client,
      });
      if (until) throw lockedError(until);
      throw new AppError(ErrorCode.BAD_CREDENTIALS, 'Incorrect username or password');
    }

    const token = newToken();
    await this.db.transaction(async (tx) => {
      await repo.clearFailures(tx, username, client.ip);
      await repo.insertSession(tx, {
        userId: user.id,
        tokenHash: hashToken(token),
        ttlSeconds: this.opts.sessionTtl,
        ...client,
      });
      await repo.insertLoginLog(tx, { userId: user.id, username, result: 'success', ...client });
    });
    return {
      token,
      user: {
        id: user.id,
        username: user.username,
        type: user.type === 1 ? 1 : 0,
        roleId: user.roleId,
        language: user.language as Language,
      },
    };
  }

  /**
   * Checks the current password of a logged-in user (change password) under the same lockout as
   * login: failures count in login_throttle for (username, address), the fifth locks the pair for
   * 15 minutes (42901), and a lock also stops logins from that address. Returns whether it matched.
   */
  async verifyCurrentPassword(user: { username: string }, client: ClientInfo, hash: string | undefined, password: string) {
    if (this.opts.lockout) {
      const until = await repo.lockedUntil(this.db, user.username, client.ip);
      if (until) throw lockedError(until);
    }
    const good = hash ? await verifyPassword(hash, password) : false;
    if (good) {
      if (this.opts.lockout) await repo.clearFailures(this.db, user.username, client.ip);
      return true;
    }
    const until = this.opts.lockout ? await repo.recordFailure(this.db, user.username, client.ip) : undefined;
    if (until) throw lockedError(until);
    return false;
  }

  /** Resolves a token to its session or throws the §8 session code. */
  async authenticate(token: string | undefined): Promise<AuthContext> {
    if (!token || token.length > 128) {
      throw new AppError(ErrorCode.TOKEN_ILLEGAL, 'Illegal token, please log in');
    }
    const tokenHash = hashToken(token);
    // Taken before the read: a change heard while reading keeps the read out of the cache.
    const epoch = this.sessions.epoch();
    const cached = this.sessions.get(tokenHash);
    const read = cached ?? (await this.readSession(tokenHash));
    // Slide the expiry, but not with a write on every request: at most once a minute, and at
    // least four times per lifetime so a short SESSION_TTL still slides with regular use.
    if (Date.now() - read.lastUsedAt > touchIntervalMs(this.opts.sessionTtl)) await this.touch(read);
    if (!cached) this.sessions.put(tokenHash, read, epoch);
    return read.auth;
  }

  /**
   * A token's session read again from the database, past the cache: a live socket's rights after
   * a change its notification may not have reached the cache for yet.
   */
  async reread(token: string): Promise<AuthContext> {
    return (await this.readSession(hashToken(token))).auth;
  }

  /** The session behind a token hash from the database, or the §8 code that refuses it. */
  private async readSession(tokenHash: string): Promise<CachedSession> {
    const s = await repo.findSession(this.db, tokenHash);
    if (!s) throw new AppError(ErrorCode.TOKEN_ILLEGAL, 'Illegal token, please log in');
    if (s.revokedAt || !s.enabled) {
      throw new AppError(
        ErrorCode.TOKEN_REVOKED,
        s.revokedReason === 'password'
          ? 'Your password was changed, please log in again'
          : 'Your session has ended, please log in again',
      );
    }
    if (s.expiresAt.getTime() <= Date.now()) {
      throw new AppError(ErrorCode.TOKEN_EXPIRED, 'Your session has expired, please log in again');
    }
    const auth: AuthContext = {
      sessionId: s.sessionId,
      userId: s.userId,
      username: s.username,
      type: s.type,
      path: s.path,
      roleId: s.roleId,
      role: s.roleIdentification,
      language: s.language,
      codes: s.codes ?? undefined,
    };
    return { auth, expiresAt: s.expiresAt.getTime(), lastUsedAt: s.lastUsedAt.getTime() };
  }

  /** Writes a session's use (its expiry slides); the read in hand follows. */
  private async touch(read: CachedSession) {
    await repo.touchSession(this.db, read.auth.sessionId, this.opts.sessionTtl);
    read.lastUsedAt = Date.now();
    read.expiresAt = read.lastUsedAt + this.opts.sessionTtl * 1000;
  }

  async logout(auth: AuthContext, client: ClientInfo) {
    const ended = await this.db.transaction(async (tx) => {
      const ids = await repo.revokeSessions(tx, { sessionId: auth.sessionId }, 'logout');
      await repo.insertLoginLog(tx, {
        userId: auth.userId,
        username: auth.username,
        result: 'logout',
        ...client,
      });
      return ids;
    });
    this.bus.emit('session.ended', {
      sessionIds: ended,
      code: ErrorCode.TOKEN_REVOKED,
      reason: 'logout',
    });
  }

  /** Ends the sessions of a user and of everyone below it (disabling a user disables its subtree). */
  async endSubtreeSessions(path: string, reason: 'disabled' | 'admin') {
    const ended = await repo.revokeSessions(this.db, { pathPrefix: path }, reason);
    if (ended.length > 0) {
      this.bus.emit('session.ended', { sessionIds: ended, code: ErrorCode.TOKEN_REVOKED, reason });
    }
    return ended.length;
  }

  /** Ends every other session of a user (password change, disable, role change). */
  async endOtherSessions(
    userId: number,
    reason: 'password' | 'disabled' | 'admin',
    exceptSessionId?: number,
  ) {
    const ended = await repo.revokeSessions(this.db, { userId, exceptSessionId }, reason);
    if (ended.length > 0) {
      this.bus.emit('session.ended', { sessionIds: ended, code: ErrorCode.TOKEN_REVOKED, reason });
    }
    return ended.length;
  }
}

/** How often a session's expiry is written as it is used: min(60 s, TTL / 4). */
export function touchIntervalMs(ttlSeconds: number) {
  return Math.min(60_000, (ttlSeconds * 1000) / 4);
}

function lockedError(until: Date) {
  const retryAfter = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  return new AppError(
    ErrorCode.ACCOUNT_LOCKED,
    `Too many failed logins: this account is locked for ${Math.ceil(retryAfter / 60)} more minute(s)`,
    { retryAfter },
  );
}
