import type { FastifyPluginAsync } from 'fastify';
import { deviceApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { DeviceService } from './device.service.js';

export const deviceRoutes: FastifyPluginAsync<{ devices: DeviceService }> = async (app, { devices }) => {
  route(app, api.list, async (req) => ok(await devices.list(authOf(req), req.query)));
  route(app, api.search, async (req) => ok(await devices.search(authOf(req), req.query.q, req.query.limit)));
  route(app, api.basic, async (req) => ok(await devices.basic(authOf(req), req.query.id)));
  route(app, api.subDevices, async (req) =>
    ok(await devices.subDevices(authOf(req), req.query.id, req.query.page, req.query.limit)),
  );
  route(app, api.subCount, async (req) => ok({ count: await devices.subCount(authOf(req), req.query.id) }));
  route(app, api.add, async (req) => ok(await devices.create(actorOf(req), req.body), 'device created'));
  route(app, api.edit, async (req) => {
    await devices.edit(actorOf(req), req.body);
    return ok(null, 'device updated');
  });
  route(app, api.remove, async (req) => ok({ count: await devices.remove(actorOf(req), req.query.id) }, 'devices deleted'));
  route(app, api.move, async (req) =>
    ok({ count: await devices.move(actorOf(req), req.body.ids, req.body.projectId) }, 'devices moved'),
  );
  route(app, api.credential, async (req) => ok(await devices.regenerateCredential(actorOf(req), req.body.id), 'new secret generated'));
};
