import type { FastifyPluginAsync } from 'fastify';
import { roleApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { RoleService } from './role.service.js';

export const roleRoutes: FastifyPluginAsync<{ roles: RoleService }> = async (app, { roles }) => {
  route(app, api.list, async (req) => ok(await roles.list(authOf(req), req.query)));
  route(app, api.options, async (req) => ok(await roles.options(authOf(req))));
  route(app, api.item, async (req) => ok(await roles.item(authOf(req), req.query.id)));
  route(app, api.add, async (req) => ok({ id: await roles.create(actorOf(req), req.body) }, 'role created'));
  route(app, api.edit, async (req) => {
    await roles.edit(actorOf(req), req.body);
    return ok(null, 'role updated');
  });
  route(app, api.remove, async (req) => {
    await roles.remove(actorOf(req), req.query.id);
    return ok(null, 'role deleted');
  });
  route(app, api.permissions, async (req) => ok(await roles.permissions(authOf(req), req.query.id)));
  route(app, api.setPermissions, async (req) => {
    await roles.setPermissions(actorOf(req), req.body.id, req.body.permissionIds);
    return ok(null, 'permissions saved');
  });
};
