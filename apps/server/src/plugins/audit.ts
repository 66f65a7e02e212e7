import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode, type AuditAction } from '@iot/contract';
import { conflictFromDb } from '../lib/db-errors.js';
import { AppError } from '../lib/errors.js';
import type { Actor, AuthContext, ClientInfo } from '../lib/caller.js';
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

/** The caller of a state-changing route as services log it (see modules/audit). */
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
  return typeof body?.name === 'string' ? body.name : typeof body?.username === 'string' ? body.username : '';
}

/**
 * Writes the operation-log row of a request whose service wrote none (modules/audit's
 * `auditRequest`, passed by app.ts); it bounds the name as the log keeps it.
 */
export type RecordRequest = (
  caller: AuthContext,
  request: ClientInfo & { action: string; entityId: string; entityName: string; failed: boolean; summary?: unknown },
) => Promise<void>;

/**
 * Every state-changing route declares its action; failures of authenticated callers (refused
 * permission, validation, conflicts) are logged too, outside the rolled-back transaction.
 */
export const auditPlugin = fp(async (app: FastifyInstance, opts: { record: RecordRequest }) => {
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
    // A unique violation that escaped a service still logs as the conflict the caller was told.
    const known = err instanceof AppError ? err : conflictFromDb(err);
    if (known) {
      const { reason, params, field } = (known.data ?? {}) as { reason?: unknown; params?: unknown; field?: unknown };
      req.auditError = {
        code: known.code,
        message: known.message,
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
      await opts.record(req.auth, {
        action,
        entityId: entityIdOf(req),
        entityName: entityNameOf(req),
        failed,
        summary: failed ? (req.auditError ?? { status: reply.statusCode }) : undefined,
        ...clientOf(req),
      });
    } catch (err) {
      req.log.error({ err }, 'could not write the operation log');
    }
    return payload;
  });
});
