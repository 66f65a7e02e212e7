import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  USER_PICKER_PERMISSIONS,
  emailAddSchema,
  emailDtoSchema,
  envelope,
  idQuerySchema,
  optionSchema,
  pageOf,
  userCreateSchema,
  userDtoSchema,
  userEditSchema,
  userListQuerySchema,
  userOptionsQuerySchema,
  userRepasswordSchema,
  type PermissionCode,
  idNumberSchema,
} from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/envelope.js';
import type { UserAdminService } from './admin.service.js';

/** One API behind three screens (/sys/adminuser, /sys/user, /user/agent): any of their codes opens it. */
const any = (verb: 'list' | 'add' | 'edit' | 'delete'): readonly PermissionCode[] => [
  `admin:${verb}`,
  `user:${verb}`,
  `agent:${verb}`,
];
const idData = envelope(z.object({ id: z.number().int() }));
const none = envelope(z.null());

export const userAdminRoutes: FastifyPluginAsyncZod<{ admin: UserAdminService }> = async (app, { admin }) => {
  const tags = ['users'];
  app.get(
    '/user/list',
    {
      config: { permission: any('list') },
      schema: { tags, summary: 'Users of the caller’s subtree (kind: admin | user | agent)', querystring: userListQuerySchema, response: { 200: envelope(pageOf(userDtoSchema)) } },
    },
    async (req) => ok(await admin.list(authOf(req), req.query)),
  );
  app.get(
    '/user/item',
    { config: { permission: any('list') }, schema: { tags, querystring: idQuerySchema, response: { 200: envelope(userDtoSchema) } } },
    async (req) => ok(await admin.item(authOf(req), req.query.id)),
  );
  app.get(
    '/user/options',
    {
      config: { permission: USER_PICKER_PERMISSIONS },
      schema: { tags, summary: 'Searchable parent-user options', querystring: userOptionsQuerySchema, response: { 200: envelope(z.array(optionSchema)) } },
    },
    async (req) => ok(await admin.options(authOf(req), req.query.q, req.query.limit)),
  );
  app.post(
    '/user/add',
    { config: { permission: any('add'), audit: 'user.add' }, schema: { tags, body: userCreateSchema, response: { 200: idData } } },
    async (req) => ok({ id: await admin.create(actorOf(req), req.body) }, 'user created'),
  );
  app.post(
    '/user/edit',
    { config: { permission: any('edit'), audit: 'user.edit' }, schema: { tags, body: userEditSchema, response: { 200: none } } },
    async (req) => {
      await admin.edit(actorOf(req), req.body);
      return ok(null, 'user updated');
    },
  );
  app.delete(
    '/user/delete',
    { config: { permission: any('delete'), audit: 'user.delete' }, schema: { tags, querystring: idQuerySchema, response: { 200: none } } },
    async (req) => {
      await admin.remove(actorOf(req), req.query.id);
      return ok(null, 'user deleted');
    },
  );
  app.post(
    '/user/repassword',
    {
      config: { permission: any('edit'), audit: 'user.repassword' },
      schema: { tags, summary: 'Reset another user’s password; ends its sessions', body: userRepasswordSchema, response: { 200: none } },
    },
    async (req) => {
      await admin.resetPassword(actorOf(req), req.body.id, req.body.password);
      return ok(null, 'password reset');
    },
  );
  app.post(
    '/user/unlock',
    {
      config: { permission: any('edit'), audit: 'user.unlock' },
      schema: { tags, summary: 'Lift a failed-login lock', body: z.object({ id: idNumberSchema }), response: { 200: none } },
    },
    async (req) => {
      await admin.unlock(actorOf(req), req.body.id);
      return ok(null, 'user unlocked');
    },
  );
  app.get(
    '/user/emaillist',
    {
      config: { permission: 'authenticated' },
      schema: { tags, summary: 'Emails of a user (id = user id)', querystring: idQuerySchema, response: { 200: envelope(z.array(emailDtoSchema)) } },
    },
    async (req) => ok(await admin.emails(authOf(req), req.query.id)),
  );
  app.post(
    '/user/addemail',
    { config: { permission: 'authenticated', audit: 'email.add' }, schema: { tags, body: emailAddSchema, response: { 200: idData } } },
    async (req) => ok({ id: await admin.addEmail(actorOf(req), req.body.userId, req.body.email) }, 'email added'),
  );
  app.delete(
    '/user/deleteemail',
    { config: { permission: 'authenticated', audit: 'email.delete' }, schema: { tags, querystring: idQuerySchema, response: { 200: none } } },
    async (req) => {
      await admin.deleteEmail(actorOf(req), req.query.id);
      return ok(null, 'email deleted');
    },
  );
};
