import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode, auditEntityOf, type AuditAction } from '@iot/contract';
import type { Executor } from '../db/client.js';
import { AppError } from '../lib/errors.js';
import { summarize } from '../lib/summary.js';
import { insertOperationLog } from '../modules/audit/audit.repo.js';
import type { AuthContext } from '../modules/auth/auth.service.js';
import { API_PREFIX, authOf, clientOf } from './auth.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Operation-log action (`<entity>.<verb>`) of a state-changing route, or false for the few
     * that log elsewhere (login and logout go to the login log). Required on every non-GET route.
     */
    audit?: AuditAction | false;
  }
  interface FastifyRequest {
    auditWritten: boolean;
    auditError: AuditError | null;
  }
}

/** What a refused change logs: the code, the English message and the refusal's reason. */
interface AuditError {
  code: number;
  message: string;
  reason?: string;
  params?: unknown;
  field?: string;
}

/** Who does what, from where: passed by routes to services, which log inside their transaction. */
export interface Actor extends AuthContext {
  action: AuditAction;
  ip: string;
  userAgent: string;
  /** Set when the service has written its log row. */
  markWritten(): void;
}

export function actorOf(req: FastifyRequest): Actor {
  const action = req.routeOptions.config.audit;
  if (!action) throw new Error(`route ${req.url} has no audit action`);
  return {
    ...authOf(req),
    ...clientOf(req),
    action,
    markWritten: () => {
      req.auditWritten = true;
    },
  };
}

/** The `id` a request names in its query or body, if any: what a refused change was aimed at. */
function entityIdOf(req: FastifyRequest): string {
  for (const source of [req.query, req.body]) {
    const id = (source as { id?: unknown } | undefined)?.id;
    if (typeof id === 'number' || (typeof id === 'string' && id.length <= 64)) return String(id);
  }
  return '';
}

/** The name a refused request gives its object (`name` or `username` of the body), if any. */
function entityNameOf(req: FastifyRequest): string {
  const body = req.body as { name?: unknown; username?: unknown } | undefined;
  const name = typeof body?.name === 'string' ? body.name : typeof body?.username === 'string' ? body.username : '';
  return boundName(name);
}

const NAME_MAX = 128;
function boundName(name: string): string {
  const trimmed = name.trim();
  return trimmed.length > NAME_MAX ? `${trimmed.slice(0, NAME_MAX - 1)}…` : trimmed;
}

/**
 * Writes the operation-log row of a successful change, in the change's transaction. `name` is
 * the object's name as readers know it (username, role name, SN…), kept even after the object
 * is renamed or deleted; `summary` what changed, ids already resolved to names where the service
 * has them.
 */
export async function audit(
  tx: Executor,
  actor: Actor,
  entry: { entityId?: number | string; name?: string; summary?: unknown },
) {
  await insertOperationLog(tx, {
    userId: actor.userId,
    username: actor.username,
    userPath: actor.path,
    role: actor.role,
    action: actor.action,
    entity: auditEntityOf(actor.action),
    entityId: entry.entityId === undefined ? '' : String(entry.entityId),
    entityName: boundName(entry.name ?? ''),
    summary: entry.summary === undefined ? '' : summarize(entry.summary),
    ip: actor.ip,
    userAgent: actor.userAgent,
    result: 'success',
  });
  actor.markWritten();
}

/**
 * A change request that turned out to change nothing (it sent what is already stored): no
 * operation-log row, and the route's hook does not write one in its place either.
 */
export function auditNothing(actor: Actor) {
  actor.markWritten();
}

/**
 * Every state-changing route declares its action; failures of authenticated callers (refused
 * permission, validation, conflicts) are logged too, outside the rolled-back transaction.
 */
export const auditPlugin = fp(async (app: FastifyInstance, opts: { db: Executor }) => {
  app.decorateRequest('auditWritten', false);
  app.decorateRequest('auditError', null);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX)) return;
    const methods = [route.method].flat();
    if (methods.every((m) => m === 'GET' || m === 'HEAD')) return;
    if (route.config?.audit === undefined) {
      throw new Error(`Route ${methods.join(',')} ${route.url} declares no audit action`);
    }
  });

  app.addHook('onError', async (req, _reply, err: unknown) => {
    if (err instanceof AppError) {
      const { reason, params, field } = (err.data ?? {}) as { reason?: unknown; params?: unknown; field?: unknown };
      req.auditError = {
        code: err.code,
        message: err.message,
        // The console names the refusal in the reader's language from these.
        ...(typeof reason === 'string' ? { reason } : {}),
        ...(params && typeof params === 'object' ? { params } : {}),
        ...(typeof field === 'string' ? { field } : {}),
      };
    } else {
      const e = err as { validation?: unknown; message?: string };
      req.auditError = {
        code: e.validation ? ErrorCode.VALIDATION : ErrorCode.SERVER_ERROR,
        message: e.validation ? String(e.message) : 'server error',
      };
    }
  });

  // onSend, not onResponse: the row is written before the caller gets its answer, so a log
  // read right after a refused change already shows it.
  app.addHook('onSend', async (req, reply, payload) => {
    const action = req.routeOptions.config?.audit;
    if (!action || !req.auth || req.auditWritten) return payload;
    req.auditWritten = true;
    const failed = reply.statusCode >= 400;
    if (!failed) req.log.warn({ action }, 'a change finished without its operation-log row');
    try {
      await insertOperationLog(opts.db, {
        userId: req.auth.userId,
        username: req.auth.username,
        userPath: req.auth.path,
        role: req.auth.role,
        action,
        entity: auditEntityOf(action),
        entityId: entityIdOf(req),
        entityName: entityNameOf(req),
        summary: failed ? summarize(req.auditError ?? { status: reply.statusCode }) : '',
        ...clientOf(req),
        result: failed ? 'failure' : 'success',
      });
    } catch (err) {
      req.log.error({ err }, 'could not write the operation log');
    }
    return payload;
  });
});
