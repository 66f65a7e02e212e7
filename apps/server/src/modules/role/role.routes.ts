import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  envelope,
  idQuerySchema,
  pageOf,
  roleCreateSchema,
  roleDtoSchema,
  roleEditSchema,
  roleListQuerySchema,
  roleOptionSchema,
  rolePermissionViewSchema,
  rolePermissionsSchema,
} from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/envelope.js';
import type { RoleService } from './role.service.js';

const none = envelope(z.null());

export const roleRoutes: FastifyPluginAsyncZod<{ roles: RoleService }> = async (app, { roles }) => {
  const tags = ['roles'];
  app.get(
    '/role/getlist',
    { config: { permission: 'role:list' }, schema: { tags, querystring: roleListQuerySchema, response: { 200: envelope(pageOf(roleDtoSchema)) } } },
    async (req) => ok(await roles.list(authOf(req), req.query)),
  );
  app.get(
    '/role/getoptionslist',
    {
      config: { permission: ['role:list', 'admin:add', 'admin:edit', 'user:add', 'user:edit', 'agent:add', 'agent:edit'] },
      schema: { tags, summary: 'Roles the caller may give to users', response: { 200: envelope(z.array(roleOptionSchema)) } },
    },
    async (req) => ok(await roles.options(authOf(req))),
  );
  app.get(
    '/role/getitem',
    { config: { permission: 'role:list' }, schema: { tags, querystring: idQuerySchema, response: { 200: envelope(roleDtoSchema) } } },
    async (req) => ok(await roles.item(authOf(req), req.query.id)),
  );
  app.post(
    '/role/add',
    { config: { permission: 'role:add', audit: 'role.add' }, schema: { tags, body: roleCreateSchema, response: { 200: envelope(z.object({ id: z.number().int() })) } } },
    async (req) => ok({ id: await roles.create(actorOf(req), req.body) }, 'role created'),
  );
  app.post(
    '/role/edit',
    { config: { permission: 'role:edit', audit: 'role.edit' }, schema: { tags, body: roleEditSchema, response: { 200: none } } },
    async (req) => {
      await roles.edit(actorOf(req), req.body);
      return ok(null, 'role updated');
    },
  );
  app.delete(
    '/role/delete',
    { config: { permission: 'role:delete', audit: 'role.delete' }, schema: { tags, querystring: idQuerySchema, response: { 200: none } } },
    async (req) => {
      await roles.remove(actorOf(req), req.query.id);
      return ok(null, 'role deleted');
    },
  );
  app.get(
    '/role/getpermission',
    {
      config: { permission: 'role:list' },
      schema: { tags, summary: 'The role’s permissions and the tree of what the caller may grant', querystring: idQuerySchema, response: { 200: envelope(rolePermissionViewSchema) } },
    },
    async (req) => ok(await roles.permissions(authOf(req), req.query.id)),
  );
  app.post(
    '/role/setpermission',
    { config: { permission: 'role:edit', audit: 'role.setpermission' }, schema: { tags, body: rolePermissionsSchema, response: { 200: none } } },
    async (req) => {
      await roles.setPermissions(actorOf(req), req.body.id, req.body.permissionIds);
      return ok(null, 'permissions saved');
    },
  );
};
