import type { FastifyPluginAsync } from 'fastify';
import { auditApi as api } from '@iot/contract';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { AuditService } from './audit.service.js';

/** Operation logs and administrator login logs, scoped to the caller's subtree. */
export const auditRoutes: FastifyPluginAsync<{ logs: AuditService }> = async (app, { logs }) => {
  route(app, api.operations, async (req) => ok(await logs.operationLogs(authOf(req), req.query)));
  route(app, api.logins, async (req) => ok(await logs.loginLogs(authOf(req), req.query)));
};
