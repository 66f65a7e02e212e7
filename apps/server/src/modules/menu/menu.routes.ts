import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, idQuerySchema, int4QuerySchema, menuCreateSchema, menuEditSchema, menuNodeSchema, menuOptionSchema } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/envelope.js';
import type { MenuAdminService } from './menu.admin.service.js';
import type { MenuService } from './menu.service.js';

const none = envelope(z.null());

export const menuRoutes: FastifyPluginAsyncZod<{ menus: MenuService; menuAdmin: MenuAdminService }> = async (
  app,
  { menus, menuAdmin },
) => {
  const tags = ['menus'];
  app.get(
    '/menu/menutestlist',
    { config: { permission: 'menu:list' }, schema: { tags, summary: 'The whole menu tree, for management', response: { 200: envelope(z.array(menuNodeSchema)) } } },
    async () => ok(await menuAdmin.tree()),
  );
  app.get(
    '/menu/menutestoptionslist',
    {
      config: { permission: ['menu:list', 'permission:list'] },
      schema: { tags, summary: 'Menu tree options for the parent-menu picker', response: { 200: envelope(z.array(menuOptionSchema)) } },
    },
    async () => ok(await menuAdmin.options()),
  );
  app.post(
    '/menu/addmenutest',
    { config: { permission: 'menu:add', audit: 'menu.add' }, schema: { tags, body: menuCreateSchema, response: { 200: envelope(z.object({ id: z.number().int() })) } } },
    async (req) => ok({ id: await menuAdmin.create(actorOf(req), req.body) }, 'menu created'),
  );
  app.post(
    '/menu/editmenutest',
    { config: { permission: 'menu:edit', audit: 'menu.edit' }, schema: { tags, body: menuEditSchema, response: { 200: none } } },
    async (req) => {
      await menuAdmin.edit(actorOf(req), req.body);
      return ok(null, 'menu updated');
    },
  );
  app.delete(
    '/menu/deletemenutest',
    { config: { permission: 'menu:delete', audit: 'menu.delete' }, schema: { tags, querystring: idQuerySchema, response: { 200: none } } },
    async (req) => {
      await menuAdmin.remove(actorOf(req), req.query.id);
      return ok(null, 'menu deleted');
    },
  );
  app.get(
    '/user/menulist',
    {
      config: { permission: 'authenticated' },
      schema: {
        tags,
        summary: 'The caller’s visible menus under one parent (parent_id 0: top level)',
        querystring: z.object({ parent_id: int4QuerySchema.default(0) }),
        response: { 200: envelope(z.array(menuNodeSchema)) },
      },
    },
    async (req) => {
      const find = (nodes: z.infer<typeof menuNodeSchema>[]): z.infer<typeof menuNodeSchema>[] | undefined => {
        for (const n of nodes) {
          if (n.id === req.query.parent_id) return n.children;
          const inner = find(n.children);
          if (inner) return inner;
        }
        return undefined;
      };
      const tree = await menus.treeFor(authOf(req));
      return ok(req.query.parent_id === 0 ? tree : (find(tree) ?? []));
    },
  );
};
