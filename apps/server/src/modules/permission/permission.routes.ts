import type { FastifyPluginAsync } from 'fastify';
import { permissionApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { MenuAdminService } from '../menu/menu.admin.service.js';
import type { PermissionService } from './permission.service.js';

export const permissionRoutes: FastifyPluginAsync<{ permissions: PermissionService; menuAdmin: MenuAdminService }> = async (
  app,
  { permissions, menuAdmin },
) => {
  route(app, api.list, async (req) => ok(await permissions.list(req.query)));
  route(app, api.item, async (req) => ok(await permissions.item(req.query.id)));
  route(app, api.menuOptions, async () => ok(await menuAdmin.options()));
  route(app, api.add, async (req) => ok({ id: await permissions.create(actorOf(req), req.body) }, 'permission created'));
  route(app, api.edit, async (req) => {
    await permissions.edit(actorOf(req), req.body);
    return ok(null, 'permission updated');
  });
  route(app, api.remove, async (req) => {
    await permissions.remove(actorOf(req), req.query.id);
    return ok(null, 'permission deleted');
  });
};
