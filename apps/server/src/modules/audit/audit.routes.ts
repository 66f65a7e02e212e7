import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  envelope,
  loginLogDtoSchema,
  loginLogQuerySchema,
  operationLogDtoSchema,
  operationLogQuerySchema,
  pageOf,
} from '@iot/contract';
import { authOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/envelope.js';
import type { AuditService } from './audit.service.js';

/** Operation logs and administrator login logs, scoped to the caller's subtree. */
export const auditRoutes: FastifyPluginAsyncZod<{ logs: AuditService }> = async (app, { logs }) => {
  const tags = ['logs'];
  app.get(
    '/logs/list',
    { config: { permission: 'log:operation' }, schema: { tags, summary: 'Operation logs', querystring: operationLogQuerySchema, response: { 200: envelope(pageOf(operationLogDtoSchema)) } } },
    async (req) => ok(await logs.operationLogs(authOf(req), req.query)),
  );
  app.get(
    '/logs/loginlist',
    { config: { permission: 'log:device' }, schema: { tags, summary: 'Administrator login logs', querystring: loginLogQuerySchema, response: { 200: envelope(pageOf(loginLogDtoSchema)) } } },
    async (req) => ok(await logs.loginLogs(authOf(req), req.query)),
  );
};
