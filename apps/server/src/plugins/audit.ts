import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode } from '@iot/contract';
import type { Executor } from '../db/client.js';
import { conflictFromDb } from '../lib/db-errors.js';
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
    audit?: string | false;
  }
  interface FastifyRequest {
    auditWritten: boolean;
    auditError: { code: number; message: string } | null;
  }
}

/** Who does what, from where: passed by routes to services, which log inside their transaction. */
export interface Actor extends AuthContext {
  action: string;
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

function entityOf(action: string) {
  return action.split('.')[0] ?? action;
}

/** Writes the operation-log row of a successful change, in the change's transaction. */
export async function audit(
  tx: Executor,
  actor: Actor,
  entry: { entityId?: number | string; summary?: unknown },
) {
  await insertOperationLog(tx, {
    userId: actor.userId,
    username: actor.username,
    userPath: actor.path,
    role: actor.role,
    action: actor.action,
    entity: entityOf(actor.action),
    entityId: entry.entityId === undefined ? '' : String(entry.entityId),
    summary: entry.summary === undefined ? '' : summarize(entry.summary),
    ip: actor.ip,
    userAgent: actor.userAgent,
    result: 'success',
  });
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
    const known = err instanceof AppError ? err : conflictFromDb(err);
    if (known) {
      req.auditError = { code: known.code, message: known.message };
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
        entity: entityOf(action),
        entityId: entityIdOf(req),
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
