import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  AUTHENTICATED,
  ErrorCode,
  PUBLIC,
  type PermissionCode,
  type RoutePermission,
} from '@iot/contract';
import { AppError, forbidden } from '../lib/errors.js';
import type { AuthContext, ClientInfo } from '../lib/caller.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The permission code this route needs; every /api/v1 route must declare one. A list means
     * any of them (one API behind several screens); the service then checks the precise code.
     */
    permission?: RoutePermission | readonly PermissionCode[];
    /** Also read the token from `?token` (GET /user/info, §7). */
    queryToken?: boolean;
  }
  interface FastifyRequest {
    /** Set on every route that is not PUBLIC. */
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** Every /api/v1 route with its declared permission (for the authorization matrix test). */
    apiRoutes: { method: string; url: string; permission: RoutePermission | readonly PermissionCode[] }[];
    /**
     * Resolves once this process has heard every change to sessions, users and roles committed
     * before the call (tests that change them behind the API's back wait for it).
     */
    authSync(): Promise<void>;
  }
}

export const API_PREFIX = '/api/v1';

export function tokenOf(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim();
  const x = req.headers['x-token'];
  if (typeof x === 'string' && x) return x;
  if (req.routeOptions.config.queryToken) {
    const q = (req.query as { token?: unknown } | undefined)?.token;
    if (typeof q === 'string' && q) return q;
  }
  return undefined;
}

export function clientOf(req: FastifyRequest): ClientInfo {
  return { ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '').slice(0, 512) };
}

/** The caller of a guarded route (the hook guarantees it is set). */
export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw new AppError(ErrorCode.TOKEN_ILLEGAL, 'Illegal token, please log in');
  return req.auth;
}

/** What the hook needs of modules/auth and modules/permission (app.ts passes their services). */
export interface AuthPluginOptions {
  auth: { authenticate(token: string | undefined): Promise<AuthContext>; sessions: { clear(): void } };
  permissions: { hasAny(auth: AuthContext, codes: readonly string[]): Promise<boolean> };
  perSessionPerMinute: number;
}

/**
 * One hook enforces the permission every route declares, after the per-session rate limit. A route under /api/v1 without a
 * declaration fails at registration, so nothing ships unguarded.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, opts: AuthPluginOptions) => {
    app.decorateRequest('auth', null);
    app.decorate('apiRoutes', []);
    // One session cannot monopolise the server: a generous budget per session and minute.
    const sessionLimit =
      opts.perSessionPerMinute > 0
        ? app.createRateLimit({
            max: opts.perSessionPerMinute,
            timeWindow: 60_000,
            keyGenerator: (req) => `session:${req.auth?.sessionId ?? req.ip}`,
          })
        : undefined;

    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith(API_PREFIX)) return;
      const permission = route.config?.permission;
      if (!permission) {
        throw new Error(`Route ${route.method} ${route.url} declares no permission`);
      }
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') app.apiRoutes.push({ method, url: route.url, permission });
      }
    });

    // A console write may have changed a session, a user or a role: this process reads every
    // session again from its next request, before the write's answer leaves (other processes
    // hear the database's notification).
    app.addHook('onSend', async (req) => {
      if (req.auth && req.method !== 'GET' && req.method !== 'HEAD') opts.auth.sessions.clear();
    });

    app.addHook('onRequest', async (req) => {
      const permission = req.routeOptions.config.permission;
      if (!permission || permission === PUBLIC) return;
      req.auth = await opts.auth.authenticate(tokenOf(req));
      if (sessionLimit) {
        const limit = await sessionLimit(req);
        if (!limit.isAllowed && limit.isExceeded) {
          throw new AppError(ErrorCode.RATE_LIMITED, 'Too many requests for this session, please slow down', {
            retryAfter: Math.max(1, limit.ttlInSeconds),
          });
        }
      }
      if (permission === AUTHENTICATED) return;
      const needed = typeof permission === 'string' ? [permission] : permission;
      if (!(await opts.permissions.hasAny(req.auth, needed))) {
        throw forbidden('missingPermission', { codes: needed.join(' or ') });
      }
    });
  },
);
