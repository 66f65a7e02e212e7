import { auditEntityOf, type LoginLogDto, type OperationLogDto, type Page } from '@iot/contract';
import type { z } from 'zod';
import type { loginLogQuerySchema, operationLogQuerySchema } from '@iot/contract';
import type { Db, Executor } from '../../db/client.js';
import { scopeOf } from '../../lib/scope.js';
import { summarize } from '../../lib/summary.js';
import type { Actor, AuthContext, ClientInfo } from '../../lib/caller.js';
import * as repo from './audit.repo.js';

export type { Actor };

const NAME_MAX = 128;
/** An object's name as the log keeps it: trimmed, at most 128 characters. */
export function boundName(name: string): string {
  const trimmed = name.trim();
  return trimmed.length > NAME_MAX ? `${trimmed.slice(0, NAME_MAX - 1)}…` : trimmed;
}

/** The operation log's `entity_id` holds 64 characters. */
const ENTITY_ID_MAX = 64;

/**
 * The ids of a change as the log's entity id: a bulk change of many rows (`12,13,…`) keeps the
 * whole ids that fit and ends with `…`; the row's name and summary say the rest.
 */
export function boundEntityId(id: string): string {
  if (id.length <= ENTITY_ID_MAX) return id;
  const cut = id.lastIndexOf(',', ENTITY_ID_MAX - 2);
  return `${id.slice(0, cut > 0 ? cut : ENTITY_ID_MAX - 1)}…`;
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
  await repo.insertOperationLog(tx, {
    userId: actor.userId,
    username: actor.username,
    userPath: actor.path,
    role: actor.role,
    action: actor.action,
    entity: auditEntityOf(actor.action),
    entityId: entry.entityId === undefined ? '' : boundEntityId(String(entry.entityId)),
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
 * The row of a change request whose service wrote none: a refusal (permission, validation,
 * conflict), written outside the rolled-back transaction, or a success that forgot its row.
 */
export async function auditRequest(
  db: Executor,
  caller: AuthContext,
  request: ClientInfo & { action: string; entityId: string; entityName: string; failed: boolean; summary?: unknown },
) {
  await repo.insertOperationLog(db, {
    userId: caller.userId,
    username: caller.username,
    userPath: caller.path,
    role: caller.role,
    action: request.action,
    entity: auditEntityOf(request.action),
    entityId: boundEntityId(request.entityId),
    entityName: boundName(request.entityName),
    summary: request.summary === undefined ? '' : summarize(request.summary),
    ip: request.ip,
    userAgent: request.userAgent,
    result: request.failed ? 'failure' : 'success',
  });
}

/** Operation logs and administrator login logs, scoped to the caller's subtree. */
export class AuditService {
  constructor(private readonly db: Db) {}

  async operationLogs(ctx: AuthContext, q: z.output<typeof operationLogQuerySchema>): Promise<Page<OperationLogDto>> {
    const res = await repo.listOperationLogs(this.db, { ...q, scopePath: scopeOf(ctx) });
    return {
      total: res.total,
      exact: res.exact,
      next: res.next,
      items: res.items.map(({ userPath: _p, ...r }) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    };
  }

  async loginLogs(ctx: AuthContext, q: z.output<typeof loginLogQuerySchema>): Promise<Page<LoginLogDto>> {
    const res = await repo.listLoginLogs(this.db, { ...q, scopePath: scopeOf(ctx) });
    return {
      total: res.total,
      exact: res.exact,
      next: res.next,
      items: res.items.map((r) => ({
        id: r.id,
        username: r.username,
        result: r.result,
        ip: r.ip,
        userAgent: r.userAgent,
        createdAt: r.createdAt.toISOString(),
      })),
    };
  }
}
