import type { FastifyPluginAsync } from 'fastify';
import { deviceTypeApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { DeviceTypeService } from './devicetype.service.js';

export const deviceTypeRoutes: FastifyPluginAsync<{ types: DeviceTypeService }> = async (app, { types }) => {
  route(app, api.list, async (req) => ok(await types.list(authOf(req), req.query)));
  route(app, api.item, async (req) => ok(await types.item(authOf(req), req.query.id)));
  route(app, api.options, async (req) => ok(await types.options(authOf(req))));
  route(app, api.visible, async (req) => ok(await types.options(authOf(req))));
  route(app, api.add, async (req) => ok({ id: await types.create(actorOf(req), req.body) }, 'device type created'));
  route(app, api.edit, async (req) => {
    await types.edit(actorOf(req), req.body);
    return ok(null, 'device type updated');
  });
  route(app, api.remove, async (req) => {
    await types.remove(actorOf(req), req.query.id);
    return ok(null, 'device type deleted');
  });
  route(app, api.params, async (req) => ok(await types.params(authOf(req), req.query.id)));
  route(app, api.setParams, async (req) => {
    await types.setParams(actorOf(req), req.body.id, req.body.params);
    return ok(null, 'parameters saved');
  });
  route(app, api.alarms, async (req) => ok(await types.alarms(authOf(req), req.query.id)));
  route(app, api.setAlarms, async (req) => {
    await types.setAlarms(actorOf(req), req.body.id, req.body.rules);
    return ok(null, 'alarm rules saved');
  });
};
