import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  envelope,
  idQuerySchema,
  menuOptionSchema,
  pageOf,
  permissionCreateSchema,
  permissionDtoSchema,
  permissionEditSchema,
  permissionListQuerySchema,
} from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { ok } from '../../plugins/envelope.js';
import type { MenuAdminService } from '../menu/menu.admin.service.js';
import type { PermissionService } from './permission.service.js';

const none = envelope(z.null());

export const permissionRoutes: FastifyPluginAsyncZod<{ permissions: PermissionService; menuAdmin: MenuAdminService }> = async (
  app,
  { permissions, menuAdmin },
) => {
  const tags = ['permissions'];
  app.get(
    '/permission/getlist',
    { config: { permission: 'permission:list' }, schema: { tags, querystring: permissionListQuerySchema, response: { 200: envelope(pageOf(permissionDtoSchema)) } } },
    async (req) => ok(await permissions.list(req.query)),
  );
  app.get(
    '/permission/getitem',
    { config: { permission: 'permission:list' }, schema: { tags, querystring: idQuerySchema, response: { 200: envelope(permissionDtoSchema) } } },
    async (req) => ok(await permissions.item(req.query.id)),
  );
  app.get(
    '/permission/menuoptions',
    { config: { permission: 'permission:list' }, schema: { tags, summary: 'Menu tree to pick the owning menu', response: { 200: envelope(z.array(menuOptionSchema)) } } },
    async () => ok(await menuAdmin.options()),
  );
  app.post(
    '/permission/add',
    { config: { permission: 'permission:add', audit: 'permission.add' }, schema: { tags, body: permissionCreateSchema, response: { 200: envelope(z.object({ id: z.number().int() })) } } },
    async (req) => ok({ id: await permissions.create(actorOf(req), req.body) }, 'permission created'),
  );
  app.post(
    '/permission/edit',
    { config: { permission: 'permission:edit', audit: 'permission.edit' }, schema: { tags, body: permissionEditSchema, response: { 200: none } } },
    async (req) => {
      await permissions.edit(actorOf(req), req.body);
      return ok(null, 'permission updated');
    },
  );
  app.delete(
    '/permission/delete',
    { config: { permission: 'permission:delete', audit: 'permission.delete' }, schema: { tags, querystring: idQuerySchema, response: { 200: none } } },
    async (req) => {
      await permissions.remove(actorOf(req), req.query.id);
      return ok(null, 'permission deleted');
    },
  );
};
