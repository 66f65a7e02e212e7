import type { FastifyPluginAsync } from 'fastify';
import { menuApi as api, type MenuNode } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { MenuAdminService } from './menu.admin.service.js';
import type { MenuService } from './menu.service.js';

export const menuRoutes: FastifyPluginAsync<{ menus: MenuService; menuAdmin: MenuAdminService }> = async (
  app,
  { menus, menuAdmin },
) => {
  route(app, api.tree, async () => ok(await menuAdmin.tree()));
  route(app, api.options, async () => ok(await menuAdmin.options()));
  route(app, api.add, async (req) => ok({ id: await menuAdmin.create(actorOf(req), req.body) }, 'menu created'));
  route(app, api.edit, async (req) => {
    await menuAdmin.edit(actorOf(req), req.body);
    return ok(null, 'menu updated');
  });
  route(app, api.remove, async (req) => {
    await menuAdmin.remove(actorOf(req), req.query.id);
    return ok(null, 'menu deleted');
  });
  route(app, api.children, async (req) => {
    const find = (nodes: MenuNode[]): MenuNode[] | undefined => {
      for (const n of nodes) {
        if (n.id === req.query.parent_id) return n.children;
        const inner = find(n.children);
        if (inner) return inner;
      }
      return undefined;
    };
    const tree = await menus.treeFor(authOf(req));
    return ok(req.query.parent_id === 0 ? tree : (find(tree) ?? []));
  });
};
