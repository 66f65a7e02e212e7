import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  envelope,
  loginLogDtoSchema,
  loginLogQuerySchema,
  operationLogDtoSchema,
  operationLogQuerySchema,
  pageOf,
} from '@iot/contract';
import type { Db } from '../../db/client.js';
import { scopeOf } from '../../lib/scope.js';
import { authOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/envelope.js';
import * as repo from './audit.repo.js';

/** Operation logs and administrator login logs, scoped to the caller's subtree. */
export const auditRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ['logs'];
  app.get(
    '/logs/list',
    { config: { permission: 'log:operation' }, schema: { tags, summary: 'Operation logs', querystring: operationLogQuerySchema, response: { 200: envelope(pageOf(operationLogDtoSchema)) } } },
    async (req) => {
      const res = await repo.listOperationLogs(db, { ...req.query, scopePath: scopeOf(authOf(req)) });
      return ok({
        total: res.total,
        items: res.items.map(({ userPath: _p, ...r }) => ({ ...r, createdAt: r.createdAt.toISOString() })),
      });
    },
  );
  app.get(
    '/logs/loginlist',
    { config: { permission: 'log:device' }, schema: { tags, summary: 'Administrator login logs', querystring: loginLogQuerySchema, response: { 200: envelope(pageOf(loginLogDtoSchema)) } } },
    async (req) => {
      const res = await repo.listLoginLogs(db, { ...req.query, scopePath: scopeOf(authOf(req)) });
      return ok({
        total: res.total,
        items: res.items.map((r) => ({
          id: r.id,
          username: r.username,
          result: r.result,
          ip: r.ip,
          userAgent: r.userAgent,
          createdAt: r.createdAt.toISOString(),
        })),
      });
    },
  );
};
