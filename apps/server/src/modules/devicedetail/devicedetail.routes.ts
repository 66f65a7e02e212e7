import type { FastifyPluginAsync } from 'fastify';
import { deviceDetailApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { DeviceDetailService } from './devicedetail.service.js';

/** §7 device details (packages/contract/src/routes/devicedetail.ts, schemas in api/devicedetail.ts). */
export const deviceDetailRoutes: FastifyPluginAsync<{ details: DeviceDetailService }> = async (app, { details }) => {
  route(app, api.groupInfo, async (req) => ok(await details.groups(authOf(req), req.query.id)));
  route(app, api.displayGroups, async (req) => ok(await details.displayGroups(authOf(req), req.query.id)));
  route(app, api.setParamList, async (req) => ok(await details.writableParams(authOf(req), req.query.id)));
  route(app, api.setParams, async (req) => {
    const cmd = await details.setParams(actorOf(req), req.body.id, req.body.values);
    return ok(cmd, cmd.status === 'offline' ? 'device offline: nothing sent' : 'command sent');
  });
  route(app, api.commands, async (req) => ok(await details.commandList(authOf(req), req.query.id, req.query.page, req.query.limit)));
  route(app, api.history, async (req) => ok(await details.history(authOf(req), req.query)));
  route(app, api.historyRange, async (req) => ok(await details.historyRange(authOf(req), req.query.id)));
  route(app, api.historyExport, async (req, reply) => {
    const file = await details.historyExport(authOf(req), req.query);
    return reply
      .header('content-type', file.type)
      .header('content-disposition', `attachment; filename="${file.filename}"`)
      .send(file.body);
  });
  route(app, api.chart, async (req) => ok(await details.chart(authOf(req), req.query)));
  route(app, api.energy, async (req) => ok(await details.energy(authOf(req), req.query)));
};
